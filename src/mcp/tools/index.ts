/** The MCP server of one session: its instructions and the seven tools, each bound to that session's context. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerAppendNote } from "./append-note";
import { registerConflictStatus } from "./conflict-status";
import type { ToolContext } from "./context";
import { registerDeleteNote } from "./delete-note";
import { registerListNotes } from "./list-notes";
import { registerNoteChanges } from "./note-changes";
import { registerReadNote } from "./read-note";
import { registerWriteNote } from "./write-note";

declare const __VERSION__: string | undefined;
const VERSION = typeof __VERSION__ === "string" ? __VERSION__ : "dev";

/** The tool names are part of the contract with agents. */
export const TOOL_NAMES = ["read_note", "write_note", "append_note", "delete_note", "list_notes", "note_changes", "conflict_status"] as const;

export const INSTRUCTIONS =
	"This server edits an Obsidian vault without ever silently overwriting what a person wrote. read_note returns a note's revision; " +
	"every write to an existing note needs the revision from your last read (write_note and delete_note take it as `revision`). If the note " +
	"changed since, the write is refused, your content is kept as a .bak note, and the error says what changed and which call to make next.";

export function createMcpServer(context: ToolContext): McpServer {
	const server = new McpServer({ name: "revision-guard", version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
	registerReadNote(server, context);
	registerWriteNote(server, context);
	registerAppendNote(server, context);
	registerDeleteNote(server, context);
	registerListNotes(server, context);
	registerNoteChanges(server, context);
	registerConflictStatus(server, context);
	return server;
}
