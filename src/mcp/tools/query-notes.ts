/** query_notes: notes chosen by a JsonLogic query over their metadata, or a Dataview TABLE query (REST's POST /search/). */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { toolError, guarded } from "./context";
import { pageInputs, pageOutputs, pageRequest, pageResult } from "./search-page";

export const QUERY_NOTES_DESCRIPTION =
	"Find notes by their metadata with a JsonLogic query (`logic`), evaluated for each note over " +
	("{path, content, tags, frontmatter: {...}, stat: {ctime, mtime, size}, links, backlinks, " +
		"unresolvedLinks}; every note whose result is not ") +
	('false, null, 0, "", [] or {} is returned with its result, in path order. Operators: ' +
		"jsonlogic.com's (var, ==, !=, <, in, and, or, !, if, ") +
	'map, filter, some, all, cat, …) plus glob and regexp. Examples: {"in": ["work", {"var": "tags"}]}; ' +
	('{"==": [{"var": "frontmatter.status"}, "done"]}; {"glob": ["journal/*", {"var": ' +
		'"path"}]}; {">": [{"var": "stat.mtime"}, 1767225600000]}. ') +
	("Inside Obsidian with the Dataview plugin, `dql` takes a Dataview TABLE query instead. " +
		"A result shows part of a note and no revision: ") +
	"call read_note before you change a note. Long answers come in pages: pass `nextCursor` back as `cursor`.";

export function registerQueryNotes(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"query_notes",
		{
			title: "Query notes by metadata",
			description: QUERY_NOTES_DESCRIPTION,
			inputSchema: {
				logic: z.record(z.string(), z.unknown()).optional().describe("A JsonLogic query (one of logic or dql)."),
				dql: z
					.string()
					.min(1)
					.optional()
					.describe("A Dataview TABLE query, e.g. 'TABLE status FROM #project' (Obsidian with Dataview only)."),
				...pageInputs,
			},
			outputSchema: {
				results: z.array(
					z.object({
						path: z.string(),
						result: z.unknown().describe("What the query gave for this note (for dql: the row's columns by name)."),
					}),
				),
				...pageOutputs,
			},
			annotations: READS,
		},
		(args) =>
			guarded(context, async () => {
				if ((args.logic === undefined) === (args.dql === undefined))
					return toolError(
						"Pass exactly one of `logic` (a JsonLogic query object) or `dql` (a Dataview TABLE query). Nothing was searched.",
					);
				const request = pageRequest(args);
				const answer =
					args.logic !== undefined
						? await context.notes.search.logic(context.actor(), args.logic, request)
						: await context.notes.search.dql(context.actor(), args.dql!, request);
				if (answer.kind === "invalid-query")
					return toolError(`The query cannot be evaluated: ${answer.reason} Nothing was searched.`, {
						error: "invalid-query",
					});
				if (answer.kind === "too-costly")
					return toolError(
						`${answer.reason} Narrow the query (match on path, tags or frontmatter before content) or simplify its patterns.`,
						{ error: "too-costly" },
					);
				if (answer.kind === "scoped")
					return toolError(
						"This key may read only part of the vault, and a DQL column can show values of any " +
							"note, so `dql` is not run for it. Use `logic` (JsonLogic), which covers only the " +
							"notes this key may see. Nothing was searched.",
						{ error: "scope-forbidden" },
					);
				if (answer.kind === "unavailable") {
					const why =
						answer.reason === "no-obsidian"
							? "This is the headless host (a plain folder), which has no Dataview."
							: "The Dataview plugin is not installed or not enabled in this vault.";
					return toolError(`${why} Use \`logic\` (JsonLogic) instead. Nothing was searched.`, {
						error: "dataview-unavailable",
					});
				}
				return pageResult(answer, (hit) => ({ path: hit.filename, result: hit.result }));
			}),
	);
}
