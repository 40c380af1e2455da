/**
 * list_tags: the vault's tags with how often each is used, as the Local REST API's tag_list counts them, a page at a
 * time. A tag list names no note, so it carries no revision or change tag.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { tagPage } from "../../core/tags";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { guarded, ok } from "./context";

/** Tags per page by default, and at most. */
const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 2000;
/** A page stops early past this many characters of JSON (it is sent twice: as text and as structure). */
const PAGE_CHARS = 64 * 1024;

export const LIST_TAGS_DESCRIPTION =
	"List the tags used across the vault, each with its count, sorted by name, without " +
	"'#'. Frontmatter `tags` and inline #tags outside code " +
	("count; a nested tag counts for each parent too (`work/tasks` also counts for `work`). " +
		"When `next` is present, call list_tags again with ") +
	"`after` set to it for the next page. To add or remove a note's tags, patch its frontmatter `tags` with patch_note.";

export function registerListTags(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"list_tags",
		{
			title: "List tags",
			description: LIST_TAGS_DESCRIPTION,
			inputSchema: {
				after: z.string().optional().describe("Start after this tag name: `next` from the previous page."),
				limit: z
					.number()
					.int()
					.min(1)
					.max(MAX_LIMIT)
					.optional()
					.describe(`At most this many tags (default ${DEFAULT_LIMIT}).`),
			},
			outputSchema: {
				tags: z.array(
					z.object({ name: z.string(), count: z.number().describe("Uses across the vault, nested tags included.") }),
				),
				next: z.string().optional().describe("Present when more tags follow: pass it as `after`."),
			},
			annotations: READS,
		},
		({ after, limit }) =>
			guarded(context, async () => {
				const page = tagPage(await context.notes.facts.tags(context.actor()), {
					...(after === undefined ? {} : { after }),
					limit: limit ?? DEFAULT_LIMIT,
					maxChars: PAGE_CHARS,
				});
				return ok({ tags: page.tags, ...(page.next === undefined ? {} : { next: page.next }) });
			}),
	);
}
