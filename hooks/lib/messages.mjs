// @ts-check
/**
 * Everything the hook says, to the model (a refused edit, a note on a read) or to the person (a warning). Each
 * message names the note, says whether anything was written, and gives the next step.
 */

/** The most of a diff one refusal carries: enough to see what the person changed, small enough for any context. */
export const MESSAGE_DIFF_CHARS = 6000;
const REMOVE_HOOK = "remove the hook from the agent's settings (.claude/settings.json)";

export const messages = {
	readFirst: (/** @type {string} */ path) =>
		`Revision Guard: "${path}" is a note in the vault that this session has not read, so the edit was not made. Read the note first, then make your edit on top of what it holds now: the person may have written things you have not seen.`,

	partRead: (/** @type {string} */ path) =>
		`Revision Guard: this session read only part of "${path}", so replacing the whole note could drop the rest, and the Write was not made. Read the whole note (no offset or limit) first, or change just the part you read with Edit.`,

	changed: (
		/** @type {string} */ path,
		/** @type {string} */ tool,
		/** @type {string} */ diff,
		/** @type {boolean} */ truncated,
	) =>
		[
			`Revision Guard: "${path}" changed since this session last read it (someone else, most likely the person, edited it), so your ${tool} was not made. What changed since your read:`,
			"",
			cappedDiff(diff, truncated),
			"",
			"Next step: Read the note again, then redo your edit on top of its current content, keeping their changes.",
		].join("\n"),

	changedNoDiff: (/** @type {string} */ path, /** @type {string} */ tool) =>
		`Revision Guard: "${path}" changed since this session last read it, so your ${tool} was not made (the host no longer keeps the version you read, so it cannot show what changed). Next step: Read the note again, then redo your edit on top of its current content.`,

	hostDown: (/** @type {string} */ path, /** @type {string} */ url, /** @type {string} */ reason) =>
		`Revision Guard could not check "${path}": its host at ${url} did not answer (${reason}), so the edit was not made (it could overwrite what the person wrote since you read the note). Ask the person to start Revision Guard (open the vault in Obsidian with the plugin enabled, or run \`npm start -- --vault <vault folder>\` in the plugin's folder), then Read the note and retry. To edit without this check, the person can set RG_HOOK_WHEN_DOWN=allow, or ${REMOVE_HOOK}.`,

	hostDownAllowed: (/** @type {string} */ path, /** @type {string} */ url, /** @type {string} */ reason) =>
		`Revision Guard's host at ${url} did not answer (${reason}): "${path}" is being changed without checking for edits made since it was read (RG_HOOK_WHEN_DOWN=allow).`,

	refused: (/** @type {string} */ path, /** @type {number} */ status, /** @type {string} */ detail) =>
		status === 401
			? `Revision Guard's host did not accept the hook's key (RG_KEY), so "${path}" could not be checked and the edit was not made. Ask the person to set RG_KEY to an agent key of this vault (Obsidian: settings → Agent keys; headless: npm start -- keys add <name> --vault <vault folder>), or to ${REMOVE_HOOK}.`
			: `Revision Guard's host answered ${status} for "${path}" (${detail}), so the note could not be checked and the edit was not made. Ask the person to look at the host, or to ${REMOVE_HOOK}.`,

	misconfigured: (/** @type {string[]} */ problems, /** @type {"refused" | "unrecorded"} */ consequence) =>
		`Revision Guard's hook is not set up: ${problems.join(" ")} ${consequence === "refused" ? "So vault notes cannot be checked, and the edit was not made." : "So what you read or wrote was not recorded, and edits of vault notes will be refused until it is set."} Ask the person to set it up (Revision Guard's docs/cli.md: "Guarding the agent's own file tools"), or to ${REMOVE_HOOK}.`,

	hookFailed: (/** @type {string} */ reason) =>
		`Revision Guard's hook failed (${reason}), so the edit could not be checked and was not made. Ask the person to look at it, or to ${REMOVE_HOOK}.`,

	// After a tool ran: notes added to what the model sees (nothing is refused after the fact).
	notRecorded: (/** @type {string} */ path, /** @type {string} */ why) =>
		`Revision Guard could not record which version of "${path}" you read or wrote: ${why} Editing this note will be refused until that is fixed and you Read it again.`,

	writtenDiffers: (/** @type {string} */ path) =>
		`Revision Guard: "${path}" on disk is not exactly what you wrote (another program saved it right after you, or the text was converted on the way). Read it again before you edit it further.`,
};

/** At most MESSAGE_DIFF_CHARS, cut after a whole line, saying how much more there is. */
export function cappedDiff(/** @type {string} */ diff, /** @type {boolean} */ hostTruncated) {
	if (diff.length <= MESSAGE_DIFF_CHARS && !hostTruncated) return diff;
	const room = diff.slice(0, MESSAGE_DIFF_CHARS);
	const lineEnd = room.lastIndexOf("\n");
	const shown = lineEnd > 0 ? room.slice(0, lineEnd + 1) : room;
	const left = diff.length - shown.length;
	const more = left > 0 ? `${left} more characters of the diff` : "more of the diff";
	return `${shown}[… ${more} not shown: the note has changed a lot. Read it again to see all of it.]`;
}
