/** What the two search tools share: how big a page is, and how a service answer becomes a tool result. */
import type { CallToolResult } from "../protocol/types";
import { z } from "../schema";
import type { SearchPage } from "../../service/search/note-search";
import { toolError, ok } from "./context";

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
/** About how many bytes of hits a page holds: the result carries them twice (as text and as structure). */
export const MCP_SEARCH_BYTES = 64 * 1024;

export const pageInputs = {
	limit: z
		.number()
		.int()
		.min(1)
		.max(MAX_SEARCH_LIMIT)
		.optional()
		.describe(`Most results on this page (default ${DEFAULT_SEARCH_LIMIT}); a page also stops at about 64 KB.`),
	cursor: z.string().optional().describe("`nextCursor` from the previous page of the same search, for the next page."),
	include_backups: z
		.boolean()
		.optional()
		.describe("Also search .bak notes (refused agent writes, kept for the person); left out by default."),
};

export const pageOutputs = {
	total: z.number().describe("Results found in all, on every page."),
	nextCursor: z
		.string()
		.optional()
		.describe("Present when more results follow: call again with the same arguments and this as `cursor`."),
};

export function pageRequest(args: {
	limit?: number | undefined;
	cursor?: string | undefined;
	include_backups?: boolean | undefined;
}) {
	return {
		limit: args.limit ?? DEFAULT_SEARCH_LIMIT,
		maxBytes: MCP_SEARCH_BYTES,
		includeBackups: args.include_backups === true,
		...(args.cursor === undefined ? {} : { cursor: args.cursor }),
	};
}

/** A page as the tool's result, each hit renamed by `shape`; a cursor from elsewhere as a tool error. */
export function pageResult<T>(
	answer: SearchPage<T> | { kind: "bad-cursor" },
	shape: (hit: T) => Record<string, unknown>,
): CallToolResult {
	if (answer.kind === "bad-cursor")
		return toolError(
			"The cursor does not belong to this search (other arguments, or changed). Call again " +
				"without `cursor` for the first page, then pass the `nextCursor` it gives.",
		);
	return ok({
		results: answer.hits.map(shape),
		total: answer.total,
		...(answer.nextCursor === null ? {} : { nextCursor: answer.nextCursor }),
	});
}
