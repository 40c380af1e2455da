/**
 * The history's journal (`history.jsonl`): what changed since `history.json` was last written whole, one line per
 * save. A save appends only the notes it changed and the merge-base index's changes, made durable as a whole write
 * is, so it costs what changed rather than the size of the vault. The journal is folded into `history.json` (written
 * whole, then the journal removed) once it passes a fraction of that file's size, and when the guard closes.
 *
 * Each line carries a sequence number and `history.json` the last one it holds (`journalSeq`), so a line left over
 * from before a fold (a crash between writing the file and removing the journal) is skipped on load and never brings
 * an older state back. A `history.json` without `journalSeq` was written by a version that knows no journal (or has
 * never been folded into by one): a journal beside it is older than it and is not replayed. A last line cut short (a
 * crash mid-append) is skipped: that save never finished, and the history is as the save before left it. A damaged
 * line before it is skipped too, and the whole journal is kept aside as evidence.
 */
import type { BaseIndexChange } from "../stores/base-store";
import type { StateStorage } from "../../vault/gateway";

export const HISTORY_JOURNAL_FILE = "history.jsonl";

/** What one save appends: the changed notes' JSON (as history.json holds them), the notes gone, the index's changes. */
export interface HistoryChanges {
	notes: string[];
	gone: string[];
	/** Null when the index's changes were not kept (too many): only a whole write can save it then. */
	bases: BaseIndexChange[] | null;
}

/** One save's line (the notes' JSON is spliced in as it is, not parsed and written again). */
export function journalLine(seq: number, changes: HistoryChanges): string {
	const gone = JSON.stringify(changes.gone);
	const bases = JSON.stringify(changes.bases ?? []);
	return `{"seq":${seq},"notes":[${changes.notes.join(",")}],"gone":${gone},"bases":${bases}}\n`;
}

export interface LoadedJournal {
	/** The lines to replay, in order: those after what history.json holds. */
	saves: JournalSave[];
	/** The last sequence number found (in history.json or the journal, replayed or not): new lines continue after it. */
	lastSeq: number;
	/** Whether the journal held anything (it may then end in half a line: nothing is appended to it before a fold). */
	present: boolean;
	bytes: number;
}

interface JournalSave {
	seq: number;
	notes: { path: string }[];
	gone: string[];
	bases: BaseIndexChange[];
}

/**
 * Reads the journal. `held` is history.json's journalSeq (undefined when it has none: nothing is replayed). A damaged
 * journal is kept as `history.jsonl.damaged-<time>`.
 */
export async function loadJournal(storage: StateStorage, held: number | undefined): Promise<LoadedJournal> {
	const text = await storage.read(HISTORY_JOURNAL_FILE).catch(() => null);
	const saves: JournalSave[] = [];
	let lastSeq = held ?? 0;
	let damaged = false;
	const lines = (text ?? "").split("\n");
	lines.forEach((line, index) => {
		if (line === "") return;
		const save = parseSave(line);
		// Only the last line can be torn by a crash; a bad line anywhere else is damage worth keeping.
		if (save === null) damaged ||= index < lines.length - 1;
		else {
			lastSeq = Math.max(lastSeq, save.seq);
			if (held !== undefined && save.seq > held) saves.push(save);
		}
	});
	if (damaged && text !== null) await storage.write(`${HISTORY_JOURNAL_FILE}.damaged-${Date.now()}`, text);
	return { saves, lastSeq, present: (text ?? "") !== "", bytes: text?.length ?? 0 };
}

/** The history and base index history.json held, with the journal's saves replayed over them (the last save of a note wins). */
export function replayJournal(
	history: unknown,
	bases: unknown,
	saves: readonly JournalSave[],
): { history: unknown; bases: unknown } {
	if (saves.length === 0) return { history, bases };
	const snapshot = history as { version?: unknown; notes?: unknown } | null | undefined;
	const notes = new Map<string, unknown>();
	if (snapshot?.version === 1 && Array.isArray(snapshot.notes))
		for (const note of snapshot.notes as { path?: unknown }[])
			if (typeof note?.path === "string") notes.set(note.path, note);
	const index = new Map<string, number>();
	const entries = (bases as { entries?: unknown } | null | undefined)?.entries;
	if (Array.isArray(entries))
		for (const entry of entries as unknown[])
			if (Array.isArray(entry) && typeof entry[0] === "string") index.set(entry[0], entry[1] as number);
	for (const save of saves) {
		for (const path of save.gone) notes.delete(path);
		for (const note of save.notes) notes.set(note.path, note);
		for (const change of save.bases) {
			if (typeof change === "string") index.delete(change);
			else {
				// Made the most recently used: moved to the end.
				index.delete(change[0]);
				index.set(change[0], change[1]);
			}
		}
	}
	return { history: { version: 1, notes: [...notes.values()] }, bases: { entries: [...index.entries()] } };
}

/** One save, or null when the line is not one (cut short, or damaged). */
function parseSave(line: string): JournalSave | null {
	try {
		const save = JSON.parse(line) as Partial<JournalSave> | null;
		if (
			typeof save !== "object" ||
			save === null ||
			!Number.isSafeInteger(save.seq) ||
			!Array.isArray(save.notes) ||
			// A note's history as a snapshot holds it (RevisionHistory checks its entries one by one).
			!save.notes.every(
				(note) => typeof note?.path === "string" && Array.isArray((note as { entries?: unknown }).entries),
			) ||
			!Array.isArray(save.gone) ||
			!save.gone.every((path) => typeof path === "string") ||
			!Array.isArray(save.bases) ||
			!save.bases.every(isIndexChange)
		)
			return null;
		return save as JournalSave;
	} catch {
		return null;
	}
}

function isIndexChange(change: unknown): change is BaseIndexChange {
	return (
		typeof change === "string" ||
		(Array.isArray(change) &&
			change.length === 2 &&
			typeof change[0] === "string" &&
			Number.isFinite(change[1]) &&
			(change[1] as number) >= 0)
	);
}
