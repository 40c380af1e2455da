/**
 * PATCH /vault/{path} with the Local REST API's headers (Operation, Target-Type, Target, Target-Delimiter). The patch
 * is computed on the note as read, and the whole result goes through the guarded writer like a PUT, checked against
 * the token the client sent or, without one, the revision it last read. No token at all is a 428, never a blind write.
 */
import { applyPatch, type PatchInstruction, type PatchOperation } from "../../core/patch";
import { parseEntityTagCondition, revisionOf, sentRevisions, strongMatch, type EntityTagCondition } from "../../core/revision";
import type { WriteOutcome } from "../../service/guarded-writer";
import { problem } from "../problems";
import type { ApiResponse } from "../response";
import type { RequestContext } from "../router";
import { resolvePath } from "./note-path";
import { refusalResponse } from "./refusal";
import { headersValue } from "./vault-read";
import { heldRevision, respond } from "./vault-write";
import { agentActor } from "../../service/actor";

type Refused = Extract<WriteOutcome, { kind: "refused" }>;

const OPERATIONS: readonly PatchOperation[] = ["append", "prepend", "replace"];

export async function patchNote(context: RequestContext): Promise<ApiResponse> {
	const resolved = resolvePath(context, "note");
	if (!resolved.ok) return resolved.response;
	const { path } = resolved;
	const instruction = patchInstruction(context);
	if ("response" in instruction) return instruction.response;
	// Captured when the request arrived (see heldRevision), before the body is read.
	const held = heldRevision(context, path);
	const body = await context.body();
	if (!body.ok) return body.response;

	const sent = parseEntityTagCondition(headersValue(context, "if-match"));
	if (sent.kind === "malformed") return refusalResponse(context, path, refused({ reason: "malformed-condition", header: "If-Match" }, null));
	const snapshot = await context.guard.gateway.read(path);
	if (!snapshot) return problem("note-not-found", `There is no note at "${path}"; PATCH changes an existing note. Create it with PUT.`, { path });
	const current = revisionOf(snapshot.content);

	// The token checked: the one sent, else the revision this client last read (as the writer does for PUT).
	const implicit = sent.kind === "absent" ? held : null;
	const condition: EntityTagCondition = implicit !== null ? { kind: "tags", tags: [{ weak: false, opaque: implicit }] } : sent;
	if (condition.kind !== "tags") return refusalResponse(context, path, refused({ reason: "token-required" }, current));
	const fresh = strongMatch(condition, current);

	const patched = applyPatch(snapshot.content, instruction, body.text);
	if (!patched.ok) {
		// A stale client is told to read again first: the target may well be there in the note it has not seen.
		if (!fresh) return refusalResponse(context, path, { ...refused({ reason: "stale", sentRevision: sentRevisions(condition)[0] ?? null }, current), implicit: implicit !== null });
		const name = patched.reason === "target-not-found" ? "patch-target-not-found" : "invalid-patch";
		return problem(name, patched.detail, { path, reason: patched.reason, currentRevision: current });
	}

	const outcome = await context.guard.writer.write({
		path,
		operation: { kind: "replace", body: patched.content },
		// The patch was computed on the note as read, so the write must land on exactly that revision: a fresh token
		// list is narrowed to the one revision read (another listed tag must not let it land on a newer note). When
		// the token does not name that revision, the same tags in If-None-Match make the write fail even if the note
		// returns to the token's revision before the check.
		ifMatch: fresh ? { kind: "tags", tags: [{ weak: false, opaque: current }] } : condition,
		ifNoneMatch: fresh ? { kind: "absent" } : condition,
		actor: agentActor(context.agent?.name ?? "unknown", context.client ?? undefined),
		// The body is a part of the note, not the note: an emptied note is what the patch computed.
		allowEmpty: true,
	});
	if (outcome.kind !== "refused") return respond(context, path, outcome);
	// That If-None-Match is ours, not the client's: to the client, its token was stale.
	const refusal = outcome.refusal.reason === "exists" ? { reason: "stale" as const, sentRevision: sentRevisions(condition)[0] ?? null } : outcome.refusal;
	return refusalResponse(context, path, { ...outcome, refusal, implicit: implicit !== null || outcome.implicit });
}

function patchInstruction(context: RequestContext): PatchInstruction | { response: ApiResponse } {
	const operation = headersValue(context, "operation")?.trim().toLowerCase();
	const targetType = headersValue(context, "target-type")?.trim().toLowerCase();
	const rawTarget = headersValue(context, "target");
	const usage = "PATCH needs Operation (append, prepend or replace), Target-Type (heading or frontmatter) and Target (percent-encoded; nested headings joined by Target-Delimiter, default ::); nothing was written.";
	if (operation === undefined || targetType === undefined || rawTarget === undefined) return invalid(usage);
	if (!OPERATIONS.includes(operation as PatchOperation)) return invalid(`Operation "${operation}" is not supported. ${usage}`);
	if (targetType !== "heading" && targetType !== "frontmatter") {
		return {
			response: problem("patch-target-not-supported", `Target-Type "${targetType}" is not supported here; heading and frontmatter are (block references are not). Nothing was written. To change anything else, GET the note and PUT it whole with If-Match.`),
		};
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

function invalid(detail: string): { response: ApiResponse } {
	return { response: problem("invalid-patch", detail) };
}

function refused(refusal: Refused["refusal"], currentRevision: string | null): Refused {
	return { kind: "refused", refusal, currentRevision, conflict: null, backupError: null, changes: null, mergePreview: null, implicit: false };
}
