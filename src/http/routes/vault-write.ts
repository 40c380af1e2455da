/** PUT (replace or create), POST (append) and DELETE on /vault/{path}, all through the one guarded writer. */
import type { WriteOperation } from "../../core/guard";
import type { HeldRead } from "../../service/stores/read-ledger";
import { parseEntityTagCondition } from "../../core/revision";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { refuse } from "../problems";
import type { ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { headersValue } from "./headers";
import { resolveWritePath } from "./note-path";
import { patchVersion, servedAsFormat1 } from "./patch-version";
import { format1Target, rawPatch } from "./raw-patch";
import { heldRevision, respond } from "./write-answer";

export async function putNote(context: RequestContext): Promise<ApiResponse> {
	// Target-Type/Target name one part of the note: replacing the whole note with it would lose the rest.
	const part = format1Target(context);
	if (part) return servedAsFormat1(() => rawPatch(context, resolveWritePath(context), part, "replace"));
	return bodyWrite(context, (body) => ({ kind: "replace", body }));
}

export async function appendNote(context: RequestContext): Promise<ApiResponse> {
	const part = format1Target(context);
	if (part) return servedAsFormat1(() => rawPatch(context, resolveWritePath(context), part, "append"));
	// An append adds text to a note: a JSON or binary body is refused (as LRA does), never appended as it came.
	resolveWritePath(context);
	const type = headersValue(context, "content-type");
	if (type !== undefined && !TEXT_BODY.test(type)) {
		refuse(
			"text-body-required",
			`POST appends text, and this body is ${type.slice(0, 80)}, so nothing was written. ` +
				`Send the text itself with Content-Type: text/markdown. To change a frontmatter value, ` +
				`PATCH /vault/{note}/frontmatter/{key} with a JSON body.`,
		);
	}
	return bodyWrite(context, (body) => ({ kind: "append", body }));
}

/** text/*, or curl's default for --data-binary (which sends the file's bytes as they are). */
const TEXT_BODY = /^\s*(text\/[^;\s]+|application\/x-www-form-urlencoded)\s*(;|$)/i;

export async function deleteNote(context: RequestContext): Promise<ApiResponse> {
	const path = resolveWritePath(context);
	patchVersion(context);
	// A client that names a part of the note means that part, never the whole note: deleting a part is a PATCH.
	if (headersValue(context, "target-type") !== undefined || headersValue(context, "target") !== undefined) {
		return refuse(
			"conflicting-target",
			"DELETE deletes a whole note, but this request names a part of it (Target-Type/Target), " +
				"so nothing was deleted. To delete a part, send PATCH with Operation: delete and the " +
				"same Target-Type and Target; to delete the note, send DELETE without them.",
		);
	}
	const held = heldRevision(context, path);
	return respond(context, path, await write(context, path, { kind: "delete" }, held));
}

async function bodyWrite(context: RequestContext, operation: (body: string) => WriteOperation): Promise<ApiResponse> {
	const path = resolveWritePath(context);
	// Local REST API 5.x refuses a Markdown-Patch-Version it does not know on every request; so do we.
	patchVersion(context);
	// What a tokenless client is held to is what it knew when it SENT this request: captured before the body arrives,
	// so its own parallel write cannot become this write's basis.
	const held = heldRevision(context, path);
	const body = await context.body();
	return respond(context, path, await write(context, path, operation(body), held));
}

function write(
	context: RequestContext,
	path: string,
	operation: WriteOperation,
	held: HeldRead | null,
): Promise<WriteOutcome> {
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
	if (prefer === undefined) return false;
	return prefer.split(",").some((preference) => /^\s*merge\s*=\s*"?auto"?\s*(;|$)/i.test(preference));
}
