/**
 * search_query, search_simple, tag_list, vault_move and vault_copy, with the Local REST API 5.1's names and arguments,
 * over the services wired in service-operations.ts.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { READS, REWRITES } from "../tools/annotations";
import { guarded, type ToolContext } from "../tools/context";
import { lraError, lraText } from "./answers";
import { serviceOperations, type LraAnswer } from "./service-operations";

const moveArgs = {
	path: z.string().describe("Source file path relative to vault root"),
	destination: z
		.string()
		.describe("Destination path relative to vault root; ending with '/' keeps the source's file name in that folder."),
	allowOverwrite: z
		.boolean()
		.optional()
		.describe("Replace a file at the destination (it must have been read in this session)."),
};

const SEARCH_QUERY_DESCRIPTION =
	"Search vault notes with a JsonLogic query evaluated for each note over {path, content, " +
	"tags, frontmatter, stat: {ctime, mtime, size}, links, " +
	("backlinks, unresolvedLinks}, plus glob and regexp; returns [{filename, result}] " +
		'for the notes whose result is truthy, in path order. Examples: {"in": ') +
	('["myTag", {"var": "tags"}]}; {"==": [{"var": "frontmatter.status"}, "done"]}; {"glob": ' +
		'["journal/*", {"var": "path"}]}. Hidden and config ') +
	("folders and .bak notes are never searched. At most 1000 results per answer: when " +
		"more follow, a second text says how to page on (query_notes ") +
	"with its cursor). A result shows part of a note and no revision: vault_read a note before changing it.";
const SEARCH_SIMPLE_DESCRIPTION =
	"Search vault notes for text: every word of the query must occur in the note's name " +
	"or content. Returns [{filename, score, matches: [{match: " +
	("{start, end, source}, context}]}], best first; each match carries contextLength " +
		"characters around it (default 100). At most 1000 results per ") +
	("answer: when more follow, a second text says how to page on (search_notes with its " +
		"cursor). A result shows part of a note and no revision.");

export function registerLraServiceTools(server: McpServer, context: ToolContext): void {
	const ops = serviceOperations(context.notes);
	const answer = async (run: () => Promise<LraAnswer>) => {
		const result = await run();
		if (!result.ok) return lraError(result.message, result.facts);
		const answered = lraText(result.value);
		// The JSON stays the first text item, as that server's clients parse it; how to have the rest comes after.
		if (result.note !== undefined) answered.content.push({ type: "text", text: result.note });
		return answered;
	};

	server.registerTool(
		"search_query",
		{
			description: SEARCH_QUERY_DESCRIPTION,
			inputSchema: { query: z.record(z.unknown()).describe("JsonLogic query object to evaluate against each note") },
			annotations: READS,
		},
		({ query }) => guarded(context, () => answer(() => ops.searchQuery(context.actor(), query))),
	);
	server.registerTool(
		"search_simple",
		{
			description: SEARCH_SIMPLE_DESCRIPTION,
			inputSchema: {
				query: z.string().describe("Search query string"),
				contextLength: z.number().optional().describe("Characters of context around each match (default: 100)"),
			},
			annotations: READS,
		},
		({ query, contextLength }) =>
			guarded(context, () => answer(() => ops.searchSimple(context.actor(), query, contextLength ?? 100))),
	);
	server.registerTool(
		"tag_list",
		{
			description: "Return {tags: [{name, count}]}: every tag used across the vault, without '#'.",
			inputSchema: {},
			annotations: READS,
		},
		() => guarded(context, () => answer(() => ops.tagList(context.actor()))),
	);
	server.registerTool(
		"vault_move",
		{
			description:
				"Move (rename) a vault file, guarded: the source must be unchanged since this session " +
				"read it, and an existing destination is never replaced unread.",
			inputSchema: moveArgs,
			annotations: REWRITES,
		},
		({ path, destination, allowOverwrite }) =>
			guarded(context, () => answer(() => ops.move(context.actor(), path, destination, allowOverwrite === true))),
	);
	server.registerTool(
		"vault_copy",
		{
			description: "Copy a vault file to a new path, guarded: an existing destination is never replaced unread.",
			inputSchema: moveArgs,
			annotations: REWRITES,
		},
		({ path, destination, allowOverwrite }) =>
			guarded(context, () => answer(() => ops.copy(context.actor(), path, destination, allowOverwrite === true))),
	);
}
