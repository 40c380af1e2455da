/**
 * The one wording of what happened in a refusal, where every surface says the same thing: REST, MCP, the CLI and the
 * Local REST API tools all take these sentences, and add only their own verbs and next steps (PUT, write_note,
 * revision-guard:write). A surface passes the note's path already quoted in its own way, and what "nothing was …"
 * means for its call (written, deleted).
 */

/** What the refused call would have done to the note: written or deleted it, or (a move or copy) moved or copied it. */
export type Done = "written" | "deleted" | "moved" | "copied";

/** The note changed since the revision the caller sent. */
export function staleSentence(quoted: string, done: Done): string {
	return `${quoted} changed since you read it, so nothing was ${done}.`;
}

/** The note the caller read is gone. */
export function goneSentence(quoted: string, done: Done): string {
	return `${quoted} no longer exists (it was deleted or moved since you read it), so nothing was ${done}.`;
}

/** A create-only write found the note there. */
export function existsSentence(quoted: string): string {
	return `${quoted} already exists, so nothing was written.`;
}

/** The read the revision came from is older than the read validity window. */
export function readExpiredSentence(quoted: string, done: Done): string {
	return `you read ${quoted} longer ago than the read validity window allows, so nothing was ${done}.`;
}

/** A tokenless write would destroy most of the note. */
export function contentLossSentence(quoted: string, from: number, to: number): string {
	return (
		`this write would shrink ${quoted} from ${from} to ${to} characters without a revision, ` +
		`which usually means a stale copy; nothing was written.`
	);
}

/** An empty body would replace a note that is not empty. `noun`: what the surface calls the text sent. */
export function emptyBodySentence(quoted: string, noun: "body" | "content" | "text", length: number): string {
	return `the ${noun} is empty and would replace all ${length} characters of ${quoted}; nothing was written.`;
}

/** The person is typing in the note where its text cannot be checked. */
export function noteInUseSentence(quoted: string, done: Done): string {
	return (
		`${quoted} is being edited in Obsidian where its text cannot be checked (a canvas ` +
		`card or a popover), so nothing was ${done}, rather than risk the person's typing.`
	);
}

/** Agents may read .bak notes but never change them. */
export function backupReadOnlySentence(quoted: string, done: Done): string {
	return (
		`${quoted} is a backup of a refused write, so agents may read it but not change or ` +
		`delete it; nothing was ${done}.`
	);
}

export function notFoundSentence(quoted: string, done: Done): string {
	return `There is no note at ${quoted}; nothing was ${done}.`;
}

/** A move or copy found a note (or something else) at its destination, and was not asked to replace it. */
export function destinationTakenSentence(quoted: string, notANote: boolean, done: Done): string {
	return (
		`${quoted} already exists${notANote ? " and is not a note (a folder, say)" : ""}, ` +
		`so nothing was ${done}: what is at the destination is never replaced unless you ask.`
	);
}

/** A move or copy of a .bak, or onto a path that is (or would look like) one. */
export function backupRelocationSentence(quoted: string, side: "source" | "destination", done: Done): string {
	return (
		`${quoted} is a backup of a refused write${side === "destination" ? " (or would look like one)" : ""}: ` +
		`agents may read backups but not move, replace or create them, so nothing was ${done}.`
	);
}

/** The next step of a move or copy refused for its path itself (a .bak, say): another path on the same side. */
export function chooseAnotherSentence(side: "source" | "destination"): string {
	return side === "source" ? "Choose another note." : "Choose another destination.";
}

/** What a refused move or copy kept: nothing, because it carried nothing of the caller's. */
export function nothingLostSentence(done: "moved" | "copied"): string {
	return (
		`Nothing of yours was lost: ${done === "moved" ? "a move" : "a copy"} carries no ` +
		`text of yours, so nothing was kept.`
	);
}

/** A refused move had already put the note at its destination, which it was asked to replace, in the trash. Led by a space. */
export function destinationTrashedSentence(quotedDestination: string): string {
	return (
		` ${quotedDestination}, which you asked to replace, had already been moved to the ` +
		`trash; it is in this key's activity as a delete, and Revert brings it back.`
	);
}

/**
 * Where the refused text is, as one sentence led by a space (or nothing when nothing was kept). `conflictHint`: how
 * the surface follows the conflict, put in parentheses after the .bak's path.
 */
export function keptSentence(
	kept: { backupPath: string | null; backupError: string | null; recordError: string | null } | null,
	quote: (path: string) => string,
	conflictHint = "",
): string {
	if (kept === null) return "";
	const body =
		kept.backupPath !== null
			? ` Your content was kept, byte for byte, in ${quote(kept.backupPath)}${conflictHint ? ` (${conflictHint})` : ""}.`
			: kept.backupError !== null
				? ` Your content could NOT be kept as a .bak (${kept.backupError}); it was not written anywhere, so keep your copy.`
				: "";
	const record =
		kept.recordError !== null
			? ` Its conflict record could not be saved (${kept.recordError}): it is held in memory ` +
				`only and may not outlive a restart of the host.`
			: "";
	return body + record;
}

/** The sentence with its first letter capitalised (the shared sentences start lower-case where they can follow "Refused: "). */
export function capitalized(sentence: string): string {
	return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
