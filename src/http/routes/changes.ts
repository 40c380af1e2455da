/**
 * GET /changes/{path}?since=<revision>[&to=<revision>][&offset=<line>]: what changed in a note since a revision the
 * agent saw, as a unified diff to the note now (or to `to`). Long diffs come in pages of at most the answer cap;
 * `next` names the request for the following page.
 */
import { changeTagOf, etagFor, revisionField, tokenFor } from "../../core/revision-tokens";
import { problem } from "../problems";
import { json, type ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { resolvePath } from "./note-path";

export async function noteChanges(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const since = unquoted(context.query.get("since"));
	if (!since) return problem("bad-request", "Add ?since=<revision> (the ETag you last saw, quotes optional).");
	const wantedTo = unquoted(context.query.get("to"));
	const offset = Number(context.query.get("offset") ?? "0");
	if (!Number.isSafeInteger(offset) || offset < 0)
		return problem("bad-request", "offset must be a whole number of diff lines from 0 (take it from `nextOffset`).");
	const answer = await context.notes.changes(actorOf(context), path, {
		since,
		offset,
		...(wantedTo ? { to: wantedTo } : {}),
	});
	if (answer.kind === "missing") return problem("note-not-found", `There is no note at "${path}".`);
	if (answer.kind === "not-retained") return notRetained(path, answer.revision);
	const { page, revision, to, sight } = answer;
	// The next page is pinned to `to` by its change tag: a link never hands out a token whose content was not shown.
	const more = {
		...(page.nextOffset === null
			? {}
			: {
					truncated: true,
					nextOffset: page.nextOffset,
					next: changesLink(path, since, changeTagOf(to), page.nextOffset),
				}),
		...(page.lineCut ? { lineCut: true } : {}),
	};
	// The note's revision is handed as a token only when this page is the whole diff to it from a token the client had.
	const toSight = to === revision ? sight : "none";
	return json(
		200,
		{
			path,
			since,
			to: tokenFor(to, toSight),
			...revisionField("revision", revision, sight),
			changed: answer.changed,
			offset,
			diff: page.text,
			...more,
		},
		{ ETag: etagFor(revision, sight) },
	);
}

/** The request for one page of the diff from `since` to `to` (both retained revisions of the note). */
export function changesLink(path: string, since: string, to: string, offset: number): string {
	const encoded = path.split("/").map(encodeURIComponent).join("/");
	return `/changes/${encoded}?since=${encodeURIComponent(since)}&to=${encodeURIComponent(to)}&offset=${offset}`;
}

function notRetained(path: string, revision: string): ApiResponse {
	return problem(
		"base-not-retained",
		`Revision ${revision} of "${path}" is not retained (or never existed), so no diff ` +
			`can be made. GET the note to start from its current content.`,
		{ path },
	);
}

function unquoted(value: string | null): string | undefined {
	return value?.replace(/^(W\/)?"|"$/g, "") || undefined;
}
