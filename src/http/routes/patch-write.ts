/**
 * Writes a PATCH, whatever format it came in, through the one guarded writer: the patch is computed inside the
 * writer's atomic step on the note as it is then, and checked against the token sent or, without one, the revision
 * this client last read. No token at all is a 428, never a blind write.
 */
import type { HeldRead } from "../../core/read-ledger";
import type { EntityTagCondition } from "../../core/revision";
import { revisionOf } from "../../core/revision";
import { etagFor } from "../../core/revision-tokens";
import { applyPatch, type PatchInstruction } from "../../core/patch";
import { problem } from "../problems";
import type { ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { respond } from "./write-answer";

export interface PatchWrite {
	path: string;
	instruction: PatchInstruction;
	body: string;
	ifMatch: EntityTagCondition;
	/** Captured when the request arrived, before its body was read (see heldRevision). */
	held: HeldRead | null;
	/** Answer with the patched note (200), as Local REST API 5.1 does for every format. */
	answerWithNote: boolean;
	/** Extra headers for the answer (Deprecation, for format 1). */
	headers?: Record<string, string>;
}

export async function writePatch(context: RequestContext, request: PatchWrite): Promise<ApiResponse> {
	const { path, instruction, body } = request;
	let patched: string | null = null;
	const outcome = await context.notes.write({
		path,
		// Computed inside the writer's atomic step, on the note as it is then: never on one version and written over another.
		operation: {
			kind: "patch",
			apply: (current) => {
				const result = applyPatch(current, instruction, body);
				patched = result.ok ? result.content : null;
				return result;
			},
		},
		ifMatch: request.ifMatch,
		ifNoneMatch: { kind: "absent" },
		actor: actorOf(context),
		heldRevision: request.held,
	});
	const extra = request.headers ?? {};
	if (outcome.kind === "refused" && outcome.refusal.reason === "not-found") {
		return problem("note-not-found", `There is no note at "${path}"; PATCH changes an existing note. Create it with PUT.`, { path }, extra);
	}
	const answer = respond(context, path, outcome);
	// The last text computed is what landed when its revision is the one written (the writer may have retried).
	const landed: string | null = patched;
	if (request.answerWithNote && (outcome.kind === "written" || outcome.kind === "unchanged") && landed !== null && revisionOf(landed) === outcome.revision) {
		// The answer shows the whole patched note, so it can carry the token of all of it, and counts as a read of all of it.
		context.notes.shownWhole(actorOf(context), path, outcome.revision);
		return { status: 200, headers: { ...extra, ETag: etagFor(outcome.revision, "whole") }, body: landed, contentType: "text/markdown; charset=utf-8" };
	}
	return { ...answer, headers: { ...extra, ...answer.headers } };
}
