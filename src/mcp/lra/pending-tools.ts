/**
 * search_query, search_simple, tag_list, vault_move and vault_copy, with the Local REST API 5.1's names and arguments.
 * Their services are built on other branches of issue 23: until one is wired in pending-operations.ts, its tool
 * answers a clear "not available in this build" error and changes nothing.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { READS, REWRITES } from "../tools/annotations";
import { guarded, type ToolContext } from "../tools/context";
import { lraError, lraText } from "./answers";
import { pendingOperations, type PendingAnswer } from "./pending-operations";

const moveArgs = {
	path: z.string().describe("Source file path relative to vault root"),
	destination: z.string().describe("Destination path relative to vault root; ending with '/' keeps the source's file name in that folder."),
	allowOverwrite: z.boolean().optional().describe("Replace a file at the destination (it must have been read in this session)."),
};

export function registerLraPending(server: McpServer, context: ToolContext): void {
	const ops = pendingOperations(context.notes);
	const answer = async (tool: string, what: string, run: (() => Promise<PendingAnswer>) | undefined) => {
		if (!run) return lraError(`${tool} is not available in this build of Revision Guard (${what} is not served yet), so nothing was searched or changed. Use list_notes and read_note (or vault_list and vault_read) instead.`, { error: "not-available", tool });
		const result = await run();
		return result.ok ? lraText(result.value) : lraError(result.message);
	};

	server.registerTool(
		"search_query",
		{ description: "Search vault files with a JsonLogic query over each note's metadata (path, frontmatter, tags, stat); returns [{filename, result}].", inputSchema: { query: z.record(z.unknown()).describe("JsonLogic query object to evaluate against each note") }, annotations: READS },
		({ query }) => guarded(context, () => answer("search_query", "JsonLogic search", ops.searchQuery && (() => ops.searchQuery!(context.actor(), query)))),
	);
	server.registerTool(
		"search_simple",
		{ description: "Search vault files for text; returns [{filename, score, matches}], best first.", inputSchema: { query: z.string().describe("Search query string"), contextLength: z.number().optional().describe("Characters of context around each match (default: 100)") }, annotations: READS },
		({ query, contextLength }) => guarded(context, () => answer("search_simple", "simple search", ops.searchSimple && (() => ops.searchSimple!(context.actor(), query, contextLength ?? 100)))),
	);
	server.registerTool(
		"tag_list",
		{ description: "Return {tags: [{name, count}]}: every tag used across the vault, without '#'.", inputSchema: {}, annotations: READS },
		() => guarded(context, () => answer("tag_list", "the tag list", ops.tagList && (() => ops.tagList!(context.actor())))),
	);
	server.registerTool(
		"vault_move",
		{ description: "Move (rename) a vault file, guarded: the source must be unchanged since this session read it, and an existing destination is never replaced unread.", inputSchema: moveArgs, annotations: REWRITES },
		({ path, destination, allowOverwrite }) => guarded(context, () => answer("vault_move", "guarded move", ops.move && (() => ops.move!(context.actor(), path, destination, allowOverwrite === true)))),
	);
	server.registerTool(
		"vault_copy",
		{ description: "Copy a vault file to a new path, guarded: an existing destination is never replaced unread.", inputSchema: moveArgs, annotations: REWRITES },
		({ path, destination, allowOverwrite }) => guarded(context, () => answer("vault_copy", "guarded copy", ops.copy && (() => ops.copy!(context.actor(), path, destination, allowOverwrite === true)))),
	);
}
