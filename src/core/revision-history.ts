/**
 * Per-note revision history: which revisions a note has had, when, and who made each. Plain data in, plain data
 * out; the tracker feeds it and the state file persists it. The current token is never read from here for a
 * guard decision (that is always hashed from the content itself); this is history and attribution only.
 */

/**
 * Who produced a revision, as the history stores it (and has since its first saved state, so the stored shape stays):
 * an agent's write, the person (in Obsidian), or a program we do not know. Requests are made by an `Actor`
 * (service/notes/actor.ts); `historySource` turns one into this.
 */
export type RevisionSource = { kind: "agent"; agent: string } | { kind: "user" } | { kind: "external" };

export interface RevisionEntry {
	revision: string;
	/** Epoch milliseconds when we first saw this revision. */
	time: number;
	size: number;
	source: RevisionSource;
	/** Epoch milliseconds when an agent was last served this revision (for the read validity window). */
	servedAt?: number;
	/** The revision this one replaced, for writes through the guarded writer (what an undo of it restores). */
	replaced?: string;
	/**
	 * A delete through the guarded writer: `revision` (and `replaced`) is the revision it removed, whose text the
	 * base store keeps, so the delete can be undone. The note holds nothing after it.
	 */
	deleted?: true;
	/** A write through the guarded writer that created the note (undoing it moves the note to the trash). */
	created?: true;
	/**
	 * A move through the guarded writer: the note came here from this path (`revision` is what it held when it moved,
	 * `replaced` the same). Undoing it moves the note back.
	 */
	movedFrom?: string;
	/**
	 * One agent change that touched several notes (a move, the links Obsidian rewrote in other notes for it, and a
	 * destination it replaced): every entry it made carries the same id, so an undo takes them back together.
	 */
	change?: string;
}

export interface NoteHistory {
	path: string;
	entries: RevisionEntry[];
	deletedAt?: number;
	/**
	 * The file's identity (VaultGateway.identity's key: device, inode, size, times) when its latest revision was
	 * read from it, recorded only for a file that had settled by then: while the file still has it, a start-up may
	 * trust the latest revision without reading the note again (git's index, racily clean files re-read).
	 */
	identity?: string;
}

import type { StoredNote } from "./stored-note";

export interface HistorySnapshot {
	version: 1;
	notes: (NoteHistory | StoredNote)[];
}

/** How many deleted notes keep their history. */
export const MAX_DELETED_NOTES = 1000;
