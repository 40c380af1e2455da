/** Each note's revisions, who made them and what they replaced: the store behind history and undo. */
import {
	MAX_DELETED_NOTES,
	type HistorySnapshot,
	type NoteHistory,
	type RevisionEntry,
	type RevisionSource,
} from "../../core/revision-history";
import { StoredNote, storedIdentity } from "../../core/stored-note";
import { changeTagOf, partTokenOf, tokenKind } from "../../core/revision-tokens";

export class RevisionHistory {
	/**
	 * A live note read from the saved state stays its JSON text (see core/stored-note.ts) until it is first asked for
	 * more than whether it is there and its identity: one string per note rather than several objects.
	 */
	private readonly notes = new Map<string, NoteHistory | string>();
	private deletedCount = 0;
	/** How many times a note became live or stopped being live (liveChanges). */
	private livenessChanges = 0;
	/** Notes changed (or gone) since the last takeChanges: what a save of the history's journal writes. */
	private readonly changed = new Set<string>();

	constructor(private readonly maxEntriesPerNote = 20) {}

	/** Records that `path` now holds `revision`. Returns false when that is already its latest revision (a no-op save). */
	observe(path: string, revision: string, size: number, source: RevisionSource, time: number): boolean {
		const note = this.note(path);
		if (!note) {
			// Made with its one entry: an empty array pushed to would reserve room for many (a large vault's first start
			// records tens of thousands of notes with one entry each).
			this.notes.set(path, { path, entries: [{ revision, time, size, source }] });
			this.livenessChanges++;
			this.changed.add(path);
			return true;
		}
		const latest = note.entries[note.entries.length - 1];
		if (latest && latest.revision === revision && note.deletedAt === undefined) return false;
		if (note.deletedAt !== undefined) this.deletedCount--;
		// A new revision may make a note live again, or give a live one its first entry: counted either way.
		this.livenessChanges++;
		delete note.deletedAt;
		// Whatever file identity was recorded was the old revision's.
		delete note.identity;
		note.entries.push({ revision, time, size, source });
		trimEntries(note.entries, this.maxEntriesPerNote);
		this.changed.add(path);
		return true;
	}

	/** The identity recorded for the note's latest revision (see NoteHistory.identity). A stored note stays unparsed. */
	identityOf(path: string): string | undefined {
		const note = this.notes.get(path);
		if (typeof note === "string") return storedIdentity(note);
		return note?.deletedAt === undefined ? note?.identity : undefined;
	}

	/** Records (or, undefined, forgets) the file identity `revision` was read with, if it is the latest. Returns whether it changed. */
	setIdentity(path: string, revision: string, identity: string | undefined): boolean {
		const note = this.note(path);
		if (
			!note ||
			note.deletedAt !== undefined ||
			note.entries.at(-1)?.revision !== revision ||
			note.identity === identity
		)
			return false;
		if (identity === undefined) delete note.identity;
		else note.identity = identity;
		this.changed.add(path);
		return true;
	}

	latest(path: string): RevisionEntry | undefined {
		const note = this.note(path);
		if (!note || note.deletedAt !== undefined) return undefined;
		return note.entries[note.entries.length - 1];
	}

	entries(path: string): readonly RevisionEntry[] {
		return this.note(path)?.entries ?? [];
	}

	/** The most recent entry of `path` that produced this revision (not a delete of it), if it is still in the window. */
	find(path: string, revision: string): RevisionEntry | undefined {
		const entries = this.note(path)?.entries ?? [];
		for (let i = entries.length - 1; i >= 0; i--)
			if (entries[i]!.revision === revision && !entries[i]!.deleted) return entries[i];
		return undefined;
	}

	/**
	 * The revision of `path`'s history that `token` names: the revision itself, or one whose part token or change tag
	 * it is (the forms agents are handed instead of the revision; they cannot be turned back into it otherwise).
	 */
	revisionNamed(path: string, token: string): string | undefined {
		const kind = tokenKind(token);
		if (kind === "whole") return token;
		const formOf = kind === "part" ? partTokenOf : changeTagOf;
		const entries = this.note(path)?.entries ?? [];
		for (let i = entries.length - 1; i >= 0; i--)
			if (formOf(entries[i]!.revision) === token) return entries[i]!.revision;
		return undefined;
	}

	/** Records who deleted `path` (through the guarded writer) and which revision it removed (`change`: see RevisionEntry). */
	recordDeletion(path: string, revision: string, source: RevisionSource, time: number, change?: string): void {
		this.livenessChanges++;
		let note = this.note(path);
		if (!note) {
			note = { path, entries: [] };
			this.notes.set(path, note);
		}
		note.entries.push({
			revision,
			time,
			size: 0,
			source,
			replaced: revision,
			deleted: true,
			...(change === undefined ? {} : { change }),
		});
		trimEntries(note.entries, this.maxEntriesPerNote);
		this.changed.add(path);
		this.markDeleted(path, time);
	}

	/** Notes what a write replaced, so the write can be undone later. False when the revision is not in the window. */
	markReplaced(path: string, revision: string, replaced: string): boolean {
		const entry = this.find(path, revision);
		if (!entry || entry.replaced === replaced) return false;
		entry.replaced = replaced;
		this.changed.add(path);
		return true;
	}

	/** Notes that a write created the note, so only such a write's undo deletes it. */
	markCreated(path: string, revision: string): void {
		const entry = this.find(path, revision);
		if (!entry) return;
		entry.created = true;
		this.changed.add(path);
	}

	/** Every note's history (deleted ones too), for views across the vault such as recent agent activity. */
	allNotes(): IterableIterator<Readonly<NoteHistory>> {
		this.notes.forEach((note, path) => {
			if (typeof note === "string") this.parsed(path, note);
		});
		return this.notes.values() as IterableIterator<NoteHistory>;
	}

	markServed(path: string, revision: string, time: number): void {
		const entry = this.find(path, revision);
		if (!entry) return;
		entry.servedAt = time;
		this.changed.add(path);
	}

	/**
	 * Credits the note's latest entry, when it is `revision`, to `source`: a change we learn of only after it landed (the
	 * links Obsidian rewrote for an agent's move) may have been seen first by the vault's own events, as nobody's.
	 */
	creditLatest(path: string, revision: string, source: RevisionSource): void {
		const latest = this.latest(path);
		if (latest?.revision !== revision) return;
		latest.source = source;
		this.changed.add(path);
	}

	/** Marks the entry that produced `revision` of `path` as part of one agent change (see RevisionEntry.change). */
	markChange(path: string, revision: string, change: string): void {
		const entry = this.find(path, revision);
		if (!entry) return;
		entry.change = change;
		this.changed.add(path);
	}

	/**
	 * A moved note keeps its history under the new path. What the new path had before (a note deleted there, or one a
	 * move replaced) is not dropped: it stays first, and the moved note's revisions follow it.
	 */
	rename(from: string, to: string): void {
		const note = this.note(from);
		if (!note || from === to) return;
		this.livenessChanges++;
		this.notes.delete(from);
		const earlier = this.note(to);
		if (earlier) {
			if (earlier.deletedAt !== undefined) this.deletedCount--;
			note.entries = [...earlier.entries, ...note.entries];
			trimEntries(note.entries, this.maxEntriesPerNote);
		}
		note.path = to;
		this.notes.set(to, note);
		this.changed.add(from).add(to);
	}

	/**
	 * A move through the guarded writer: the note's history goes with it (Obsidian's own rename event may have taken it
	 * there already), and the move is an entry of it at the new path, credited to who moved it and naming where it came
	 * from, so it shows in history and activity and can be undone. The note is live at its new path, whatever a
	 * watcher's delete event of the old name said meanwhile.
	 */
	recordMove(
		from: string,
		to: string,
		move: { revision: string; size: number; source: RevisionSource; time: number; change?: string },
	): void {
		this.rename(from, to);
		this.livenessChanges++;
		let note = this.note(to);
		if (!note) {
			note = { path: to, entries: [] };
			this.notes.set(to, note);
		}
		if (note.deletedAt !== undefined) {
			this.deletedCount--;
			delete note.deletedAt;
		}
		const before = note.entries[note.entries.length - 1];
		// The note was served before it moved: its read validity window goes on (the move changed no byte of it).
		const servedAt = before && before.revision === move.revision && !before.deleted ? before.servedAt : undefined;
		note.entries.push({
			revision: move.revision,
			time: move.time,
			size: move.size,
			source: move.source,
			replaced: move.revision,
			movedFrom: from,
			...(move.change === undefined ? {} : { change: move.change }),
			...(servedAt === undefined ? {} : { servedAt }),
		});
		trimEntries(note.entries, this.maxEntriesPerNote);
		this.changed.add(to);
	}

	markDeleted(path: string, time: number): void {
		const note = this.note(path);
		if (!note) return;
		this.livenessChanges++;
		if (note.deletedAt === undefined) this.deletedCount++;
		note.deletedAt = time;
		this.changed.add(path);
		if (this.deletedCount > MAX_DELETED_NOTES) this.forgetOldestDeleted();
	}

	/**
	 * Deleted notes' histories are kept for a while (a note may come back), but never without bound. Trims to 90% of
	 * the cap at once, so a mass deletion sorts a handful of times, not once per note.
	 */
	private forgetOldestDeleted(): void {
		const deleted = [...this.notes.values()]
			.filter((note): note is NoteHistory => typeof note !== "string" && note.deletedAt !== undefined)
			.sort((a, b) => (a.deletedAt ?? 0) - (b.deletedAt ?? 0));
		const keep = Math.floor(MAX_DELETED_NOTES * 0.9);
		for (const note of deleted.slice(0, deleted.length - keep)) {
			this.notes.delete(note.path);
			this.changed.add(note.path);
		}
		this.livenessChanges++;
		this.deletedCount = Math.min(deleted.length, keep);
	}

	/** Paths with a live (not deleted) latest revision. */
	trackedPaths(): string[] {
		// One pass, one array: a large vault's start-up asks this of tens of thousands of notes.
		const paths: string[] = [];
		this.notes.forEach((note, path) => {
			if (typeof note === "string" || note.deletedAt === undefined) paths.push(path);
		});
		return paths;
	}

	get size(): number {
		return this.notes.size;
	}

	/**
	 * Grows whenever a note may have become live or stopped being live (a new note, a revision, a delete, a move): a
	 * reader that saw it unchanged over a span knows no note's liveness changed meanwhile.
	 */
	get liveChanges(): number {
		return this.livenessChanges;
	}

	/** Notes never parsed since they were read are in it as they were read (StoredNote), to be saved as they were. */
	toSnapshot(): HistorySnapshot {
		const notes: (NoteHistory | StoredNote)[] = [];
		this.notes.forEach((note, path) => notes.push(typeof note === "string" ? new StoredNote(path, note) : note));
		return { version: 1, notes };
	}

	/**
	 * What changed since the last call, as the history's journal saves it (history-journal.ts): each changed note's JSON
	 * as a snapshot would hold it, and the paths of notes no longer held (moved away, or forgotten).
	 */
	takeChanges(): { notes: string[]; gone: string[] } {
		const notes: string[] = [];
		const gone: string[] = [];
		this.changed.forEach((path) => {
			const note = this.notes.get(path);
			if (note === undefined) gone.push(path);
			else notes.push(typeof note === "string" ? note : JSON.stringify(note));
		});
		this.changed.clear();
		return { notes, gone };
	}

	/** The note's history, parsed first if it is still as the saved state held it. */
	private note(path: string): NoteHistory | undefined {
		const note = this.notes.get(path);
		return typeof note === "string" ? this.parsed(path, note) : note;
	}

	/** Parses a stored note, checked as a loaded one is (fromSnapshot), and keeps it in its place. */
	private parsed(path: string, json: string): NoteHistory {
		// Checked to be a live note's JSON (path, entries) when it was read (core/stored-note.ts).
		const note = checkedNote(JSON.parse(json) as NoteHistory);
		this.notes.set(path, note);
		return note;
	}

	/** Builds the history a snapshot describes, taking the snapshot over (it is changed and kept, not copied). */
	static fromSnapshot(snapshot: unknown, maxEntriesPerNote?: number): RevisionHistory {
		const history = new RevisionHistory(maxEntriesPerNote);
		if (!isSnapshot(snapshot)) return history;
		// Entries are checked one by one: a hand-edited or half-written state file must not break later lookups.
		// The snapshot is taken over, not copied (it was just parsed from the state file): tens of thousands of notes
		// would otherwise be held twice while the guard opens.
		for (const note of snapshot.notes) {
			// A stored note is kept as its text, and checked when it is parsed; it is never a deleted note's.
			if (note instanceof StoredNote) {
				history.notes.set(note.path, note.json);
				continue;
			}
			history.notes.set(note.path, checkedNote(note));
			if (note.deletedAt !== undefined) history.deletedCount++;
		}
		return history;
	}
}

/** A loaded note's entries and identity checked, in place. */
function checkedNote(note: NoteHistory): NoteHistory {
	// Checked in place: a sound note (nearly every one) costs no new array.
	const entries: unknown[] = note.entries;
	if (entries.every(isEntry)) entries.forEach(keepValidSource);
	else note.entries = note.entries.filter(isEntry).map(withValidSource);
	if (note.identity !== undefined && typeof note.identity !== "string") delete note.identity;
	return note;
}

/**
 * Keeps a note's history within `max` entries, the oldest person and program revisions going first: an agent write
 * stays listed (and so revertible, with what it replaced) while the person saves the note many times after it.
 */
function trimEntries(entries: RevisionEntry[], max: number): void {
	while (entries.length > max) entries.splice(oldestNotByAgent(entries), 1);
}

/** The oldest entry not written by an agent (never the latest), or the oldest of all: run after every write. */
function oldestNotByAgent(entries: readonly RevisionEntry[]): number {
	for (let index = 0; index < entries.length - 1; index++) if (entries[index]!.source.kind !== "agent") return index;
	return 0;
}

function isEntry(value: unknown): value is RevisionEntry {
	const entry = value as Partial<RevisionEntry> | null;
	return (
		typeof entry === "object" && entry !== null && typeof entry.revision === "string" && typeof entry.time === "number"
	);
}

/**
 * An entry whose source is damaged is kept as another program's revision, so views that label it never fail; a
 * damaged move or change mark is dropped (an undo must never act on a path or a group it cannot trust).
 */
function withValidSource(entry: RevisionEntry): RevisionEntry {
	const source = entry.source as Partial<RevisionSource> | null | undefined;
	const valid =
		source?.kind === "user" ||
		source?.kind === "external" ||
		(source?.kind === "agent" && typeof source.agent === "string");
	const badMove = entry.movedFrom !== undefined && typeof entry.movedFrom !== "string";
	const badChange = entry.change !== undefined && typeof entry.change !== "string";
	// Most entries are sound and kept as they are (the snapshot is taken over); one shared source for the person's
	// and for other programs' revisions is one object fewer per entry.
	if (valid && !badMove && !badChange) {
		if (source.kind !== "agent") entry.source = source.kind === "user" ? USER : EXTERNAL;
		return entry;
	}
	const checked = valid ? { ...entry } : { ...entry, source: EXTERNAL };
	if (badMove) delete checked.movedFrom;
	if (badChange) delete checked.change;
	return checked;
}

/** withValidSource, in place in `entries`. */
function keepValidSource(entry: RevisionEntry, index: number, entries: RevisionEntry[]): void {
	const checked = withValidSource(entry);
	if (checked !== entry) entries[index] = checked;
}

const USER: RevisionSource = { kind: "user" };
const EXTERNAL: RevisionSource = { kind: "external" };

function isSnapshot(value: unknown): value is HistorySnapshot {
	if (typeof value !== "object" || value === null) return false;
	const candidate = value as Partial<HistorySnapshot>;
	return (
		candidate.version === 1 &&
		Array.isArray(candidate.notes) &&
		candidate.notes.every(
			(note) => note instanceof StoredNote || (typeof note?.path === "string" && Array.isArray(note.entries)),
		)
	);
}
