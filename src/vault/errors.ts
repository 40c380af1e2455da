/** Why the vault refused a path or a write: errors the gateways throw and the adapters turn into answers. */

/**
 * A path the gateway will not use as a note: it leads outside the vault, something else is in the way, it is a
 * symbolic link that loops, it is not a regular file, or another note's name differs from it only in Unicode
 * normalization (creating it would make two notes that look alike).
 */
export class VaultPathError extends Error {
	constructor(
		readonly path: string,
		readonly reason:
			| "outside-vault"
			| "folder-in-the-way"
			| "file-in-the-way"
			| "symlink-loop"
			| "not-a-file"
			| "name-variant"
			| "case-variant"
			| "not-indexed"
			| "index-behind"
			| "symbolic-link",
		/** For "name-variant": the existing note's path. */
		readonly existing?: string,
	) {
		super(describePathError(path, reason, existing));
	}
}

function describePathError(path: string, reason: VaultPathError["reason"], existing: string | undefined): string {
	switch (reason) {
		case "outside-vault":
			return `"${path}" leads outside the vault (through a symbolic link), so it is not served.`;
		case "folder-in-the-way":
			return `"${path}" is a folder, not a note.`;
		case "file-in-the-way":
			return `A file is in the way of "${path}": one of its parent folders is a file.`;
		case "symlink-loop":
			return `"${path}" is a symbolic link that leads back to itself (or through too many links), so it is not served.`;
		case "not-a-file":
			return `"${path}" is not a regular file (a pipe or a device, say), so it is not served.`;
		case "name-variant":
			return (
				`"${existing ?? path}" already exists, and its name differs from "${path}" only in ` +
				`how its characters are encoded (Unicode normalization), so a second note was not ` +
				`created beside it.`
			);
		case "case-variant":
			return (
				`A note or folder whose name differs from "${path}" only in upper and lower case ` +
				`exists, and this disk treats such names as the same, so "${path}" was not created over it.`
			);
		case "not-indexed":
			return (
				`"${path}" is on disk, but Obsidian has not taken it in yet (another program just ` +
				`created it), so it was not created over.`
			);
		case "index-behind":
			return (
				`"${path}" was just changed, removed or renamed on disk by another program, and Obsidian ` +
				`has not taken that in yet, so it was not written.`
			);
		case "symbolic-link":
			return (
				`"${path}" is a symbolic link: it is read and written through, but not moved (moving ` +
				`the link could break it, and moving what it points to would take another name's note away).`
			);
	}
}

/**
 * The note is being edited where its text cannot be seen (a canvas card, a hover popover): writing now could
 * overwrite the person's typing, so nothing was written.
 */
export class NoteBusyError extends Error {
	constructor(
		readonly path: string,
		/** What the note held as far as it can be seen (null if not known). */
		readonly lastSeen: string | null,
	) {
		super(`"${path}" is being edited in Obsidian where its text cannot be checked, so nothing was written.`);
	}
}

/** The note changed under every attempt to write it (another program, or the person typing); nothing was written. */
export class NoteKeptChangingError extends Error {
	constructor(
		readonly path: string,
		/** What the note held at the last attempt (null when it was missing). */
		readonly lastSeen: string | null,
	) {
		super(`"${path}" kept changing while it was being written, so nothing was written.`);
	}
}

/**
 * A note whose bytes are not valid UTF-8. It is never served or written as text: decoding it would substitute
 * replacement characters, so two different contents would share one revision and an edit could be lost.
 */
export class NoteEncodingError extends Error {
	constructor(readonly path: string) {
		super(
			`"${path}" is not valid UTF-8 text, so it is neither served nor changed here (decoding it would alter its bytes).`,
		);
	}
}
