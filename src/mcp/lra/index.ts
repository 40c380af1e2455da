/**
 * The Local REST API 5.1's MCP tools (and 5.0's periodic_note_get_path), with its names, arguments and answers, for
 * agents and scripts written for that server. Every write among them goes through the guarded writer. They are
 * listed at /mcp/lra; at /mcp they can be called but are not listed, so an agent sees one set of tools by default
 * (tool-visibility.ts).
 */
import type { McpServer } from "../protocol/server";
import type { ToolContext } from "../tools/context";
import { registerLraServiceTools } from "./service-tools";
import { registerLraReads } from "./vault-reads";
import { registerLraWorkspace } from "./workspace-tools";
import { registerLraWrites } from "./vault-writes";

export const LRA_TOOL_NAMES = [
	"vault_list",
	"vault_read",
	"vault_write",
	"vault_append",
	"vault_patch",
	"vault_delete",
	"vault_move",
	"vault_copy",
	"vault_get_document_map",
	"active_file_get_path",
	"search_query",
	"search_simple",
	"tag_list",
	"command_list",
	"command_execute",
	"open_file",
	"periodic_note_get_path",
] as const;

export const LRA_INSTRUCTIONS =
	"This server edits an Obsidian vault without ever silently overwriting what a person " +
	"wrote, with the Local REST API's tool names. vault_read " +
	("a note before you change it: vault_write, vault_delete and vault_patch (without " +
		"ifMatch) are checked against your last read of that note in ") +
	("this session. If the note changed since, the write is refused, your content is kept " +
		"as a .bak note, and the error says what changed and what ") +
	"to call next. vault_append needs no read.";

export function registerLraTools(server: McpServer, context: ToolContext): void {
	registerLraReads(server, context);
	registerLraWrites(server, context);
	registerLraWorkspace(server, context);
	registerLraServiceTools(server, context);
}
