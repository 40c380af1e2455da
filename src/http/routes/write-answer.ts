/** The answers every guarded write shares: the revision a tokenless write is held to, and the answer to its outcome. */
import type { HeldRead } from "../../service/stores/read-ledger";
import { etagFor, revisionField } from "../../core/revision-tokens";
import { inapplicableCode } from "../../core/refusal-codes";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { problem, problemOf } from "../problems";
import { json, noContent, type ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { refusalResponse } from "./refusal";

/**
 * The revision this client's tokenless write is held to, as of now (the request's arrival). A request with a
 * condition of its own (If-Match or If-None-Match, even a malformed one) is never held to one, so none is looked up.
 */
export function heldRevision(context: RequestContext, path: string): HeldRead | null {
	if (context.headers["if-match"] !== undefined || context.headers["if-none-match"] !== undefined) return null;
	return context.notes.holdRevision(actorOf(context), path);
}

/**
 * The answer to a guarded write's outcome (PATCH answers through this too). Its ETag is a token only as far as the
 * client has seen the note it names: a whole replace hands the revision; an append, patch or edit to a note it had not
 * read whole, or a merge it has not seen, hands a part token (it can patch, not replace: read the note for that).
 * A note created by PUT or POST is answered 204, as the Local REST API does, its revision in the ETag; `created`
 * "201" answers with the note's summary instead (history's undo of a delete, which has no LRA counterpart).
 */
export function respond(
	context: RequestContext,
	path: string,
	outcome: WriteOutcome,
	created: "204" | "201" = "204",
): ApiResponse {
	switch (outcome.kind) {
		case "written": {
			const etag = { ETag: etagFor(outcome.revision, outcome.sight) };
			if (outcome.merged) {
				return json(
					200,
					{
						path,
						...revisionField("revision", outcome.revision, outcome.sight),
						merged: true,
						...(outcome.mergeRules ? { mergeRules: outcome.mergeRules } : {}),
						detail:
							"Your revision was stale, but your changes and the newer ones merged cleanly; the " +
							"merge was written. Its ETag can patch the note; GET the note to see the merge (and " +
							"for a revision that can replace it).",
					},
					{
						...etag,
						"Preference-Applied": "merge=auto",
					},
				);
			}
			if (outcome.created && created === "204") return noContent({ ...etag, Location: locationOf(path) });
			if (outcome.created) {
				return json(
					201,
					{ path, ...revisionField("revision", outcome.revision, outcome.sight), created: true },
					{
						...etag,
						Location: locationOf(path),
					},
				);
			}
			return noContent(etag);
		}
		case "unchanged":
			return noContent({ ETag: etagFor(outcome.revision, outcome.sight) });
		case "deleted":
			return noContent();
		case "inapplicable":
			return problem(
				problemOf(inapplicableCode(outcome.reason, "patch")),
				outcome.detail,
				{
					path,
					reason: outcome.reason,
					...revisionField("currentRevision", outcome.currentRevision, outcome.currentSight),
				},
				{ ETag: etagFor(outcome.currentRevision, outcome.currentSight) },
			);
		case "refused":
			return refusalResponse(context, path, outcome);
		case "proposed":
			return proposedResponse(outcome);
	}
}

/**
 * A change that waits for the person (the key may only propose changes to the note): 202 Accepted, nothing written
 * yet, and where to follow it (GET /proposals/{id}?wait=N learns the person's decision).
 */
export function proposedResponse(outcome: Extract<WriteOutcome, { kind: "proposed" }>): ApiResponse {
	const location = `/proposals/${encodeURIComponent(outcome.id)}`;
	const detail =
		`Not written yet: this key may only propose changes to "${outcome.path}", so your ` +
		`change waits for the person, kept byte for byte in "${outcome.backupPath}". The note ` +
		`stays as it is until they decide. GET ${location}?wait=60 to wait for their decision: ` +
		`accepted as sent, accepted with their edits, or rejected with a note.`;
	return json(
		202,
		{ proposalId: outcome.id, path: outcome.path, backupPath: outcome.backupPath, status: "pending", detail },
		{ Location: location },
	);
}

function locationOf(path: string): string {
	return `/vault/${path.split("/").map(encodeURIComponent).join("/")}`;
}
