/**
 * Writes a PATCH, whatever format it came in, through the one guarded writer: the patch is computed inside the
 * writer's atomic step on the note as it is then, and checked against the token sent or, without one, the revision
 * this client last read. No token at all is a 428, never a blind write.
 */
import type { HeldRead } from "../../service/stores/read-ledger";
import type { EntityTagCondition } from "../../core/revision";
import { revisionOf } from "../../core/revision";
import { etagFor, revisionField } from "../../core/revision-tokens";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { applyPatch, type PatchInstruction, type PatchWarning } from "../../core/patch";
import { algebraError } from "../../core/patch-algebra";
import { problem, refuse } from "../problems";
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
	/** A format 1 (header) PATCH: text already in the target is a 400, as 1.x answers it. */
	format1?: boolean;
	/** Extra headers for the answer (Deprecation, for format 1). */
	headers?: Record<string, string>;
}

export async function writePatch(context: RequestContext, request: PatchWrite): Promise<ApiResponse> {
	const { path, instruction, body } = request;
	// Checked before the write: an instruction outside the algebra is a 400, never a stale write kept as .bak.
	const outside = algebraError(instruction, body);
	if (outside !== null) return refuse("invalid-patch-instruction", outside);
	let patched: string | null = null;
	let warnings: PatchWarning[] = [];
	const outcome = await context.notes.write({
		path,
		// Computed inside the writer's atomic step, on the note as it is then: never on one version and written over another.
		operation: {
			kind: "patch",
			apply: (current) => {
				const result = applyPatch(current, instruction, body);
				patched = result.ok ? result.content : null;
				warnings = result.ok ? (result.warnings ?? []) : [];
				return result;
			},
		},
		ifMatch: request.ifMatch,
		ifNoneMatch: { kind: "absent" },
		actor: actorOf(context),
		heldRevision: request.held,
	});
	// LRA's advice header: percent-encoded JSON, since a warning quotes note text and a header must be ASCII.
	const extra = {
		...request.headers,
		...(warnings.length > 0 && (outcome.kind === "written" || outcome.kind === "unchanged")
			? { "Markdown-Patch-Warnings": encodeURIComponent(JSON.stringify(warnings)) }
			: {}),
	};
	if (outcome.kind === "refused" && outcome.refusal.reason === "not-found") {
		return problem(
			"note-not-found",
			`There is no note at "${path}"; PATCH changes an existing note. Create it with PUT.`,
			{ path },
			extra,
		);
	}
	if (outcome.kind === "inapplicable" && request.answerWithNote)
		return notApplied(path, outcome, extra, request.format1 === true);
	const answer = respond(context, path, outcome);
	// The last text computed is what landed when its revision is the one written (the writer may have retried).
	const landed: string | null = patched;
	if (
		request.answerWithNote &&
		(outcome.kind === "written" || outcome.kind === "unchanged") &&
		landed !== null &&
		revisionOf(landed) === outcome.revision
	) {
		// The answer shows the whole patched note, so it can carry the token of all of it, and counts as a read of all of it.
		context.notes.shownWhole(actorOf(context), path, outcome.revision);
		return {
			status: 200,
			headers: { ...extra, ETag: etagFor(outcome.revision, "whole") },
			body: landed,
			contentType: "text/markdown; charset=utf-8",
		};
	}
	return { ...answer, headers: { ...extra, ...answer.headers } };
}

/**
 * A format 2 patch that does not apply, with LRA 5.1's statuses: a missing target (or `within` index) is 404, text
 * already there (rejectIfContentPreexists) or a frontmatter key that would appear twice is 409 (text already there is
 * 400 in format 1, as 1.x answers), frontmatter that is not YAML is 400 (40005), an instruction the note makes
 * impossible is 400. Nothing was written.
 */
function notApplied(
	path: string,
	outcome: Extract<WriteOutcome, { kind: "inapplicable" }>,
	headers: Record<string, string>,
	format1: boolean,
): ApiResponse {
	const fields = {
		path,
		reason: outcome.reason,
		...revisionField("currentRevision", outcome.currentRevision, outcome.currentSight),
	};
	const withTag = { ...headers, ETag: etagFor(outcome.currentRevision, outcome.currentSight) };
	switch (outcome.reason) {
		case "target-not-found":
			return problem("target-not-found", outcome.detail, fields, withTag);
		case "content-preexists":
			return problem(format1 ? "invalid-patch" : "content-preexists", outcome.detail, fields, withTag);
		case "invalid-frontmatter":
			return problem("invalid-frontmatter", outcome.detail, fields, withTag);
		case "key-collision":
			return problem("target-exists", outcome.detail, fields, withTag);
		case "invalid-instruction":
			return problem("invalid-patch-instruction", outcome.detail, fields, withTag);
		default:
			return problem("invalid-patch", outcome.detail, fields, withTag);
	}
}
