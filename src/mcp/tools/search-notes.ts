/** search_notes: notes whose name or content holds every word, best first, with where each word occurs (REST's /search/simple/). */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { DEFAULT_CONTEXT_LENGTH, MAX_CONTEXT_LENGTH } from "../../core/search/simple-hits";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { guarded } from "./context";
import { pageInputs, pageOutputs, pageRequest, pageResult } from "./search-page";

export const SEARCH_NOTES_DESCRIPTION =
	"Find notes by words: every word of `query` (space-separated, any case) must occur " +
	"in the note's name or content. Results come best " +
	("first, each with where the words occur (in the name, or in the content with `context` " +
		"characters around). Hidden and config folders ") +
	("are never searched. A result shows part of a note and no revision: call read_note " +
		"before you change a note. Long answers come in ") +
	"pages: pass `nextCursor` back as `cursor`. For metadata (tags, frontmatter, paths, dates, links), use query_notes.";

const match = z.object({
	source: z.enum(["filename", "content"]),
	start: z.number().describe("Offset of the match in the note's name (source filename) or content."),
	end: z.number(),
	context: z.string().describe("The name, or the match with the content around it."),
});

export function registerSearchNotes(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"search_notes",
		{
			title: "Search notes by words",
			description: SEARCH_NOTES_DESCRIPTION,
			inputSchema: {
				query: z.string().min(1).describe('Space-separated words, e.g. "budget q3"; all must occur.'),
				context_length: z
					.number()
					.int()
					.min(0)
					.max(MAX_CONTEXT_LENGTH)
					.optional()
					.describe(`Characters of content on each side of a match (default ${DEFAULT_CONTEXT_LENGTH}).`),
				...pageInputs,
			},
			outputSchema: {
				results: z.array(
					z.object({
						path: z.string(),
						score: z.number().describe("Higher is better."),
						matches: z.array(match).describe("At most 100 per note."),
						matchCount: z.number().optional().describe("Matches found, when more than are listed."),
					}),
				),
				...pageOutputs,
			},
			annotations: READS,
		},
		(args) =>
			guarded(context, async () => {
				const answer = await context.notes.search.simple(
					context.actor(),
					args.query,
					args.context_length ?? DEFAULT_CONTEXT_LENGTH,
					pageRequest(args),
				);
				return pageResult(answer, (hit) => ({
					path: hit.filename,
					score: hit.score,
					matches: hit.matches.map(({ match: at, context: around }) => ({
						source: at.source,
						start: at.start,
						end: at.end,
						context: around,
					})),
					...(hit.matchCount === undefined ? {} : { matchCount: hit.matchCount }),
				}));
			}),
	);
}
