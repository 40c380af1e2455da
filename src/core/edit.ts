/**
 * Exact text edits, like Claude Code's Edit: each `old` text is found in the note and replaced by `new`, in order,
 * each on the result of the one before. Nothing is a pattern: `$&` or `.*` are just characters. An edit that finds
 * nothing, or finds its text more than once without `replaceAll`, fails the whole call and changes nothing.
 */
import type { PatchResult } from "./patch";

export interface TextEdit {
	old: string;
	new: string;
	/** Replace every occurrence; without it, `old` must occur exactly once. */
	replaceAll?: boolean;
}

/** Edits per call: plenty for real work, and a bound on what one call can cost inside the write step. */
export const MAX_EDITS = 100;

/** The longest note edits may make (unless it was already longer): far above real notes, far below what breaks the host. */
export const MAX_EDITED_LENGTH = 64 * 1024 * 1024;

export function applyEdits(content: string, edits: readonly TextEdit[]): PatchResult {
	if (edits.length === 0) return { ok: false, reason: "invalid-target", detail: "No edits were given." };
	if (edits.length > MAX_EDITS)
		return {
			ok: false,
			reason: "invalid-target",
			detail: `At most ${MAX_EDITS} edits fit in one call; ${edits.length} were given.`,
		};
	let text = content;
	for (const [index, edit] of edits.entries()) {
		const which = edits.length === 1 ? "The edit" : `Edit ${index + 1}`;
		if (edit.old === "")
			return {
				ok: false,
				reason: "invalid-target",
				detail: `${which} has an empty old text; give the exact text to replace.`,
			};
		if (edit.old === edit.new)
			return { ok: false, reason: "invalid-target", detail: `${which} replaces a text with itself.` };
		const first = text.indexOf(edit.old);
		if (first === -1) {
			return {
				ok: false,
				reason: "target-not-found",
				detail:
					`${which}'s old text was not found in the note${index > 0 ? " (after the edits before it)" : ""}. ` +
					`Read the note again and copy the text exactly, whitespace and line breaks included.`,
			};
		}
		if (edit.replaceAll) {
			// Measured before it is built: a short old text replaced everywhere by a long one multiplies the note.
			const length = text.length + countOf(text, edit.old) * (edit.new.length - edit.old.length);
			if (length > Math.max(content.length, MAX_EDITED_LENGTH)) {
				return {
					ok: false,
					reason: "invalid-value",
					detail:
						`${which} would make the note ${length} characters long, more than an edit may make it (${MAX_EDITED_LENGTH}); ` +
						`nothing was changed. Replace fewer occurrences, or with shorter text.`,
				};
			}
			text = text.split(edit.old).join(edit.new);
			continue;
		}
		if (text.indexOf(edit.old, first + edit.old.length) !== -1) {
			return {
				ok: false,
				reason: "ambiguous-target",
				detail:
					`${which}'s old text occurs ${countOf(text, edit.old)} times. Include more of the ` +
					`surrounding text so it occurs once, or set replaceAll.`,
			};
		}
		text = text.slice(0, first) + edit.new + text.slice(first + edit.old.length);
	}
	return { ok: true, content: text };
}

function countOf(text: string, part: string): number {
	let count = 0;
	for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
	return count;
}
