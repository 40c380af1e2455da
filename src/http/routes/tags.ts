/**
 * GET /tags/: every tag the served notes use, with how often, as the Local REST API answers it ({ tags: [{ name,
 * count }] }, nested tags counting for their parents). Sorted by name; a vault with more tags than fit in one answer
 * is sent in pages (`next`, passed back as `?after=`). Tags name no note's revision, so nothing here is a token.
 */
import { tagPage } from "../../core/tags";
import { refuse } from "../problems";
import { json, type ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";

/** An answer holds at most this much JSON of tags (about 50,000 of them); a client pages past it with `after`. */
export const TAGS_ANSWER_CHARS = 2 * 1024 * 1024;
const MAX_LIMIT = 100_000;

/** `/tags/` as the Local REST API spells it, and `/tags` for clients that drop the slash. */
export function matchTags(raw: string): string | null {
	return raw === "/tags/" || raw === "/tags" ? "" : null;
}

export async function listTags(context: RequestContext): Promise<ApiResponse> {
	const after = context.query.get("after") ?? undefined;
	const limit = limitOf(context.query.get("limit"));
	const page = tagPage(await context.notes.facts.tags(actorOf(context)), { after, limit, maxChars: TAGS_ANSWER_CHARS });
	return json(
		200,
		{
			tags: page.tags.map(({ name, count }) => ({ name, count })),
			...(page.next === undefined ? {} : { next: page.next }),
		},
		{ "Cache-Control": "no-store" },
	);
}

function limitOf(raw: string | null): number {
	if (raw === null) return MAX_LIMIT;
	const limit = Number(raw);
	if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
		refuse(
			"bad-request",
			`limit must be a whole number from 1 to ${MAX_LIMIT}; it was ${JSON.stringify(raw)}. Nothing was read.`,
		);
	return limit;
}
