/**
 * The answer to reverting an agent's move (POST /history/{path}/revert on the note where the move left it): the note
 * moved back, and what became of each note whose links the move rewrote, or why nothing was moved back. Nothing of a
 * note's content is shown, so its revision comes as a change tag.
 */
import { changeTagOf, etagFor } from "../../core/revision-tokens";
import type { MoveUndo } from "../../service/moves/undo-move";
import { problem } from "../problems";
import { json, type ApiResponse } from "../response";

export function revertMoveAnswer(undo: MoveUndo): ApiResponse {
	if (undo.kind === "moved-back") {
		const left = undo.links.filter(
			(link) => link.result === "changed" || link.result === "not-retained" || link.result === "missing",
		);
		const links =
			left.length === 0
				? ""
				: ` ${left.length} note(s) whose links the move had rewritten changed since (or their ` +
					`text from before is no longer kept), so they were left as they are: check their links (${left.map((link) => `"${link.path}"`).join(", ")}).`;
		const replaced =
			undo.replaced === "exists"
				? ` The note the move had replaced at "${undo.from}" was not brought back: a note is there now.`
				: undo.replaced === "not-retained"
					? ` The text of the note the move had replaced at "${undo.from}" is no longer kept, so it was not brought back.`
					: "";
		return json(
			200,
			{
				path: undo.to,
				movedFrom: undo.from,
				changeTag: changeTagOf(undo.revision),
				links: undo.links.map((link) => ({ ...link })),
				replacedNote: undo.replaced,
				detail: `Moved "${undo.from}" back to "${undo.to}".${links}${replaced}`,
			},
			{ "Content-Location": encodeURI(undo.to), ETag: etagFor(undo.revision, "none") },
		);
	}
	const { outcome, from, to } = undo;
	if (outcome.kind === "refused" && outcome.refusal.reason === "destination-exists") {
		return problem(
			"destination-exists",
			`The move cannot be undone: "${to}", where the note came from, is taken now (a note ` +
				`created there since is never replaced), so nothing was moved back. Move or rename ` +
				`that note first, or move "${from}" yourself.`,
			{ path: from, destination: to },
		);
	}
	if (outcome.kind === "refused") {
		return problem(
			"history-stale",
			`"${outcome.path}" changed while the move was being undone, so nothing was moved ` +
				`back. GET /vault/${from}, then retry with If-Match set to its ETag.`,
			{
				path: from,
				...(outcome.currentRevision === null
					? { currentRevision: null }
					: { changeTag: changeTagOf(outcome.currentRevision) }),
			},
		);
	}
	return problem("note-not-found", `"${from}" is no longer there, so the move could not be undone.`, { path: from });
}
