/**
 * PATCH /vault/{path} with the Local REST API's headers (Operation, Target-Type, Target, Target-Delimiter). The
 * handler only parses: the patch is an operation of the guarded writer, computed inside its atomic step on the note
 * as it is then, and checked against the token the client sent or, without one, the revision it last read. No token
 * at all is a 428, never a blind write.
 */
import { applyPatch, type PatchInstruction, type PatchOperation } from "../../core/patch";
import { parseEntityTagCondition } from "../../core/revision";
import { problem, refuse } from "../problems";
import type { ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { resolvePath } from "./note-path";
import { headersValue } from "./vault-read";
import { heldRevision, respond } from "./vault-write";

const OPERATIONS: readonly PatchOperation[] = ["append", "prepend", "replace"];

export async function patchNote(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const instruction = patchInstruction(context);
	// Captured when the request arrived (see heldRevision), before the body is read.
	const held = heldRevision(context, path);
	const body = await context.body();
	const outcome = await context.notes.write({
		path,
		// Computed inside the writer's atomic step, on the note as it is then: never on one version and written over another.
		operation: { kind: "patch", apply: (current) => applyPatch(current, instruction, body) },
		ifMatch: parseEntityTagCondition(headersValue(context, "if-match")),
		ifNoneMatch: { kind: "absent" },
		actor: actorOf(context),
		heldRevision: held,
	});
	if (outcome.kind === "refused" && outcome.refusal.reason === "not-found") {
		return problem("note-not-found", `There is no note at "${path}"; PATCH changes an existing note. Create it with PUT.`, { path });
	}
	return respond(context, path, outcome);
}

function patchInstruction(context: RequestContext): PatchInstruction {
	const operation = headersValue(context, "operation")?.trim().toLowerCase();
	const targetType = headersValue(context, "target-type")?.trim().toLowerCase();
	const rawTarget = headersValue(context, "target");
	const usage = "PATCH needs Operation (append, prepend or replace), Target-Type (heading or frontmatter) and Target (percent-encoded; nested headings joined by Target-Delimiter, default ::); nothing was written.";
	if (operation === undefined || targetType === undefined || rawTarget === undefined) return invalid(usage);
	if (!OPERATIONS.includes(operation as PatchOperation)) return invalid(`Operation "${operation}" is not supported. ${usage}`);
	if (targetType !== "heading" && targetType !== "frontmatter") {
		return refuse("patch-target-not-supported", `Target-Type "${targetType}" is not supported here; heading and frontmatter are (block references are not). Nothing was written. To change anything else, GET the note and PUT it whole with If-Match.`);
	}
	const contentType = headersValue(context, "content-type") ?? "";
	return {
		operation: operation as PatchOperation,
		targetType,
		target: percentDecoded(rawTarget),
		delimiter: headersValue(context, "target-delimiter") || undefined,
		json: /^\s*application\/json\s*(;|$)/i.test(contentType),
		createTargetIfMissing: headersValue(context, "create-target-if-missing")?.trim().toLowerCase() === "true",
	};
}

/** Targets arrive percent-encoded (headers cannot carry most of Unicode); a stray literal % is taken as it is. */
function percentDecoded(raw: string): string {
	try {
		return decodeURIComponent(raw.trim());
	} catch {
		return raw.trim();
	}
}

function invalid(detail: string): never {
	return refuse("invalid-patch", detail);
}

