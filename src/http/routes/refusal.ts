/** Turns a refused write into the problem response that tells the agent exactly what happened and what to do next. */
import { etagOf } from "../../core/revision";
import type { WriteOutcome } from "../../service/guarded-writer";
import { problem } from "../problems";
import type { ApiResponse } from "../response";
import type { RequestContext } from "../router";

type Refused = Extract<WriteOutcome, { kind: "refused" }>;

export function refusalResponse(context: RequestContext, path: string, outcome: Refused): ApiResponse {
	const { refusal, conflict, currentRevision, changes, backupError, mergePreview, implicit } = outcome;
	// A client that sent no If-Match was held to the revision it last read: say so, or the 412 makes no sense to it.
	const heldTo = implicit ? "You sent no If-Match, so your last read of this note was used as your revision. " : "";
	const headers: Record<string, string> = currentRevision ? { ETag: etagOf(currentRevision) } : {};
	const kept = conflict?.backupPath
		? ` Your content was kept, byte for byte, in "${conflict.backupPath}".`
		: backupError
			? ` Your content could NOT be kept as a .bak (${backupError}); it was not written anywhere, so keep your copy.`
			: "";
	const record = conflict
		? { conflictId: conflict.id, backupPath: conflict.backupPath, ...(backupError ? { backupError } : {}) }
		: {};
	const isDelete = context.method === "DELETE";
	// A PATCH is computed here on the note now, so its retry is the same PATCH, not a rebased whole note.
	const retry = context.method === "PATCH"
		? { read: "check that your patch still fits what it holds now, then send the PATCH again", rebase: "check that your patch still fits, then send the PATCH again" }
		: { read: "re-apply your change to what it holds now, then PUT again", rebase: "apply your edit on top of the current content and PUT again" };
	switch (refusal.reason) {
		case "token-required":
			return problem("precondition-required", isDelete
				? `Deleting "${path}" needs the revision you read. GET the note, then send DELETE with If-Match set to its ETag.`
				: `"${path}" already exists and you have not read it (or your read was forgotten or too old), so nothing was written. GET the note first, ${retry.read} (ideally with If-Match set to its ETag).`,
			{ path, currentRevision }, headers);
		case "stale":
			return problem("stale-revision", heldTo + (mergePreview !== null ? "Your changes and the newer ones overlap, so they could not be merged automatically. `mergePreview` shows the attempt with conflict markers. " : "") + (currentRevision === null
				? `"${path}" no longer exists (it was deleted or moved since you read it), so nothing was written.`
				: `"${path}" changed since you read it, so nothing was written.`) + kept +
				(currentRevision === null ? " To create it again, PUT without If-Match." :
					changes ? ` The \`changes\` field is a diff from the revision you sent to the note now: ${retry.rebase} with If-Match set to currentRevision.` :
						` GET the note, ${retry.read} with the new ETag.`),
			{ path, sentRevision: refusal.sentRevision, currentRevision, ...record, changes, ...(mergePreview !== null ? { mergePreview } : {}), ...(implicit ? { implicitRevision: true } : {}) }, headers);
		case "read-expired":
			return problem("read-expired", `${heldTo}You read "${path}" longer ago than the read validity window allows, so nothing was written.${kept} GET the note again and retry with the fresh ETag.`,
				{ path, sentRevision: refusal.sentRevision, currentRevision, ...record }, headers);
		case "exists":
			return problem("note-exists", `"${path}" already exists and If-None-Match refused to replace it; nothing was written.${kept} GET it and update it with If-Match, or choose another path.`,
				{ path, currentRevision, ...record }, headers);
		case "content-loss":
			return problem("content-loss", `This write would shrink "${path}" from ${refusal.currentLength} to ${refusal.newLength} characters without a revision token, which usually means a stale copy; nothing was written.${kept} If you mean to replace the note, GET it and PUT again with If-Match set to its ETag.`,
				{ path, currentRevision, ...record }, headers);
		case "not-found":
			return problem("note-not-found", `There is no note at "${path}"; nothing was deleted.`, { path });
		case "malformed-condition":
			return problem("malformed-precondition", `The ${refusal.header} header is not a valid entity-tag list; nothing was written. Send the ETag exactly as received, quotes included (weak W/ tags never satisfy If-Match).`, { path });
	}
}
