/**
 * The one wording of what happened in a refusal, where every surface says the same thing: REST, MCP, the CLI and the
 * Local REST API tools all take these sentences, and add only their own verbs and next steps (PUT, write_note,
 * revision-guard:write). A surface passes the note's path already quoted in its own way, and what "nothing was …"
 * means for its call (written, deleted).
 */

export type Done = "written" | "deleted";

/** The note changed since the revision the caller sent. */
export function staleSentence(quoted: string, done: Done): string {
	return `${quoted} changed since you read it, so nothing was ${done}.`;
}

/** The note the caller read is gone. */
export function goneSentence(quoted: string, done: Done): string {
	return `${quoted} no longer exists (it was deleted or moved since you read it), so nothing was ${done}.`;
}

/** The read the revision came from is older than the read validity window. */
export function readExpiredSentence(quoted: string): string {
	return `you read ${quoted} longer ago than the read validity window allows, so nothing was written.`;
}

/** A tokenless write would destroy most of the note. */
export function contentLossSentence(quoted: string, from: number, to: number): string {
	return `this write would shrink ${quoted} from ${from} to ${to} characters without a revision, which usually means a stale copy; nothing was written.`;
}

/** An empty body would replace a note that is not empty. `noun`: what the surface calls the text sent. */
export function emptyBodySentence(quoted: string, noun: "body" | "content" | "text", length: number): string {
	return `the ${noun} is empty and would replace all ${length} characters of ${quoted}; nothing was written.`;
}

/** The person is typing in the note where its text cannot be checked. */
export function noteInUseSentence(quoted: string, done: Done): string {
	return `${quoted} is being edited in Obsidian where its text cannot be checked (a canvas card or a popover), so nothing was ${done}, rather than risk the person's typing.`;
}

/** Agents may read .bak notes but never change them. */
export function backupReadOnlySentence(quoted: string, done: Done): string {
	return `${quoted} is a backup of a refused write, so agents may read it but not change or delete it; nothing was ${done}.`;
}

export function notFoundSentence(quoted: string, done: Done): string {
	return `There is no note at ${quoted}; nothing was ${done}.`;
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
			? ` Its conflict record could not be saved (${kept.recordError}): it is held in memory only and may not outlive a restart of the host.`
			: "";
	return body + record;
}

/** The sentence with its first letter capitalised (the shared sentences start lower-case where they can follow "Refused: "). */
export function capitalized(sentence: string): string {
	return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
