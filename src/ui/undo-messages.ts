/** What Restore and Revert did, as one sentence for a notice. */
import type { RevertOutcome } from "../service/history/agent-activity";
import type { MoveUndo } from "../service/moves/undo-move";
import type { WriteOutcome } from "../service/write/guarded-writer";
import type { RestoreOutcome } from "../service/history/note-history";

export function restoreMessage(path: string, outcome: RestoreOutcome): string {
	switch (outcome.kind) {
		case "unknown":
			return `That version is not in the history of ${path}.`;
		case "not-retained":
			return `The text of that version of ${path} is no longer kept, so it cannot be restored.`;
		case "stale":
			return staleMessage(path);
		default:
			return writeMessage(
				path,
				outcome,
				`Restored the earlier version of ${path}. The text it replaced stays in the note's history.`,
			);
	}
}

export function revertMessage(path: string, outcome: Exclude<RevertOutcome, { kind: "needs-merge" }>): string {
	switch (outcome.kind) {
		case "unknown":
			return `That agent write is no longer in the history of ${path}.`;
		case "nothing-replaced":
			return (
				`Revert does not delete ${path}: the agent created it and it changed since (or what ` +
				`the write replaced is not recorded). Delete the note if you do not want it.`
			);
		case "exists":
			return (
				`A new ${path} was created after the agent deleted it, so nothing was written. Restore ` +
				`the deleted version from the note's history to replace it.`
			);
		case "not-retained":
			return `The text needed to revert this write to ${path} is no longer kept.`;
		case "missing":
			return `${path} no longer exists. Restore a version from its history instead.`;
		case "stale":
			return staleMessage(path);
		case "write":
			return writeMessage(
				path,
				outcome.outcome,
				outcome.merged
					? `Took the agent's change out of ${path}; the later changes were kept.`
					: revertDone(path, outcome.outcome),
			);
		case "move":
			return moveMessage(outcome.undo);
	}
}

/** What undoing a move did: moved back (and which rewritten links could not be put back), or why not. */
function moveMessage(undo: MoveUndo): string {
	if (undo.kind === "move-back-refused") {
		return undo.outcome.kind === "refused" && undo.outcome.refusal.reason === "destination-exists"
			? `${undo.to} is taken by a note created since, so ${undo.from} was not moved back.`
			: staleMessage(undo.from);
	}
	const left = undo.links
		.filter((link) => link.result === "changed" || link.result === "not-retained" || link.result === "missing")
		.map((link) => link.path);
	const links = left.length === 0 ? "" : ` Links in ${left.join(", ")} changed since, so they were left as they are.`;
	const replaced =
		undo.replaced === "exists"
			? ` The note it had replaced was not brought back: a note is at ${undo.from} now.`
			: undo.replaced === "restored"
				? ` The note it had replaced at ${undo.from} is back.`
				: "";
	return `Moved ${undo.from} back to ${undo.to}.${links}${replaced}`;
}

function revertDone(path: string, outcome: WriteOutcome): string {
	if (outcome.kind === "deleted") return `Moved ${path}, which the agent created, to the trash.`;
	if (outcome.kind === "written" && outcome.created) return `Brought back ${path}, which the agent deleted.`;
	return `Reverted the agent's write to ${path}.`;
}

function writeMessage(path: string, outcome: WriteOutcome, done: string): string {
	if (outcome.kind === "written" || outcome.kind === "deleted") return done;
	if (outcome.kind === "unchanged") return `${path} already holds that text; nothing changed.`;
	return staleMessage(path);
}

function staleMessage(path: string): string {
	return `${path} changed since this list was shown, so nothing was written. Look at the newer version and try again.`;
}
