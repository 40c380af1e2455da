/** The answers every guarded write shares: the revision a tokenless write is held to, and the answer to its outcome. */
import { etagOf } from "../../core/revision";
import type { WriteOutcome } from "../../service/guarded-writer";
import { problem } from "../problems";
import { json, noContent, type ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { refusalResponse } from "./refusal";

/**
 * The revision this client's tokenless write is held to, as of now (the request's arrival). A request with a
 * condition of its own (If-Match or If-None-Match, even a malformed one) is never held to one, so none is looked up.
 */
export function heldRevision(context: RequestContext, path: string): string | null {
	if (context.headers["if-match"] !== undefined || context.headers["if-none-match"] !== undefined) return null;
	return context.notes.holdRevision(actorOf(context), path);
}

/** The answer to a guarded write's outcome (PATCH answers through this too). */
export function respond(context: RequestContext, path: string, outcome: WriteOutcome): ApiResponse {
	switch (outcome.kind) {
		case "written":
			if (outcome.merged) {
				return json(200, { path, revision: outcome.revision, merged: true, ...(outcome.mergeRules ? { mergeRules: outcome.mergeRules } : {}), detail: "Your revision was stale, but your changes and the newer ones merged cleanly; the merge was written." }, {
					ETag: etagOf(outcome.revision),
					"Preference-Applied": "merge=auto",
				});
			}
			if (outcome.created) {
				return json(201, { path, revision: outcome.revision, created: true }, {
					ETag: etagOf(outcome.revision),
					Location: `/vault/${path.split("/").map(encodeURIComponent).join("/")}`,
				});
			}
			return noContent({ ETag: etagOf(outcome.revision) });
		case "unchanged":
			return noContent({ ETag: etagOf(outcome.revision) });
		case "deleted":
			return noContent();
		case "inapplicable":
			return problem(outcome.reason === "target-not-found" ? "patch-target-not-found" : "invalid-patch", outcome.detail, { path, reason: outcome.reason, currentRevision: outcome.currentRevision });
		case "refused":
			return refusalResponse(context, path, outcome);
	}
}

