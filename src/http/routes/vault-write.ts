/** PUT (replace or create), POST (append) and DELETE on /vault/{path}, all through the one guarded writer. */
import type { WriteOperation } from "../../core/guard";
import { etagOf, parseEntityTagCondition } from "../../core/revision";
import type { WriteOutcome } from "../../service/guarded-writer";
import { problem } from "../problems";
import { json, noContent, type ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { resolvePath } from "./note-path";
import { headersValue } from "./vault-read";
import { refusalResponse } from "./refusal";

export async function putNote(context: RequestContext): Promise<ApiResponse> {
	return bodyWrite(context, (body) => ({ kind: "replace", body }));
}

export async function appendNote(context: RequestContext): Promise<ApiResponse> {
	return bodyWrite(context, (body) => ({ kind: "append", body }));
}

export async function deleteNote(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const held = heldRevision(context, path);
	return respond(context, path, await write(context, path, { kind: "delete" }, held));
}

async function bodyWrite(context: RequestContext, operation: (body: string) => WriteOperation): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	// What a tokenless client is held to is what it knew when it SENT this request: captured before the body arrives,
	// so its own parallel write cannot become this write's basis.
	const held = heldRevision(context, path);
	const body = await context.body();
	return respond(context, path, await write(context, path, operation(body), held));
}

/** The revision this client's tokenless write is held to, as of now (the request's arrival). */
export function heldRevision(context: RequestContext, path: string): string | null {
	return context.notes.holdRevision(actorOf(context), path);
}

function write(context: RequestContext, path: string, operation: WriteOperation, held: string | null): Promise<WriteOutcome> {
	return context.notes.write({
		path,
		operation,
		ifMatch: parseEntityTagCondition(headersValue(context, "if-match")),
		ifNoneMatch: parseEntityTagCondition(headersValue(context, "if-none-match")),
		actor: actorOf(context),
		heldRevision: held,
		allowEmpty: /^\s*true\s*$/i.test(headersValue(context, "allow-empty") ?? ""),
		merge: operation.kind === "replace" && prefersAutoMerge(headersValue(context, "prefer")) ? "auto" : undefined,
	});
}

/** `Prefer: merge=auto` (RFC 7240 syntax; other preferences may stand beside it). */
export function prefersAutoMerge(prefer: string | undefined): boolean {
	return (prefer ?? "").split(",").some((preference) => /^\s*merge\s*=\s*"?auto"?\s*(;|$)/i.test(preference));
}

/** The answer to a guarded write's outcome (PATCH answers through this too). */
export function respond(context: RequestContext, path: string, outcome: WriteOutcome): ApiResponse {
	switch (outcome.kind) {
		case "written":
			if (outcome.merged) {
				return json(200, { path, revision: outcome.revision, merged: true, detail: "Your revision was stale, but your changes and the newer ones merged cleanly; the merge was written." }, {
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

