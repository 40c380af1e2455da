/**
 * The layout of the saved history (history.json): one JSON document, as it always was, with each note's history on
 * a line of its own. Any JSON reader reads it whole (an older version of the plugin too); a storage that can read a
 * file line by line (the headless host's) parses it one note at a time, so the whole text of tens of thousands of
 * notes is never held at once: about 17 MB less peak memory when the host starts on 50,000 notes.
 */
import { StoredNote, storedNote } from "../../core/stored-note";
import type { StateStorage } from "../../vault/gateway";

/** The first line of a file in this layout: what comes before the first note. */
const HEAD = '{"history":{"version":1,"notes":[';

export interface HistoryFile {
	history: unknown;
	bases: unknown;
	/** The last line of the history's journal this file holds (history-journal.ts); absent when it holds none. */
	journalSeq?: number;
}

/** The file's text: one note per line when the history is a version 1 snapshot; plain JSON otherwise. */
export function historyFileText(state: HistoryFile): string {
	const history = state.history as { version?: unknown; notes?: unknown } | null;
	if (history?.version !== 1 || !Array.isArray(history.notes) || Object.keys(history).length !== 2)
		return JSON.stringify(state);
	const lines: string[] = [HEAD];
	const notes: unknown[] = history.notes;
	// JSON text never holds a raw line break (one inside a string is written \n), so a note is always one line.
	// A note still as it was read is written as it was read.
	for (let index = 0; index < notes.length; index++) {
		const note = notes[index];
		lines.push((note instanceof StoredNote ? note.json : JSON.stringify(note)) + (index < notes.length - 1 ? "," : ""));
	}
	const journalSeq = state.journalSeq === undefined ? "" : `,"journalSeq":${state.journalSeq}`;
	lines.push(`]}${state.bases === undefined ? "" : `,"bases":${JSON.stringify(state.bases)}`}${journalSeq}}`);
	return lines.join("\n");
}

/**
 * Reads a file in this layout line by line, when the storage can; null when it cannot, when there is no such file,
 * or when the file is not in this layout or is damaged (the caller then reads it whole, which keeps a damaged file
 * as evidence).
 */
export async function readHistoryFileByLine(
	storage: StateStorage,
	name: string,
): Promise<(HistoryFile & { chars: number }) | null> {
	if (!storage.readLines) return null;
	const notes: unknown[] = [];
	let chars = 0;
	// Declared by a cast, so the callback's changes to it are not narrowed away.
	let state = "head" as "head" | "notes" | "done" | "wrong";
	let tail: { bases?: unknown; journalSeq?: unknown } = {};
	const found = await storage
		.readLines(name, (line) => {
			chars += line.length + 1;
			if (state === "head") state = line === HEAD ? "notes" : "wrong";
			else if (state === "notes") {
				if (line.startsWith("]")) {
					// The tail closes the notes and the history, then names the bases: parsed as the end of a document.
					tail = JSON.parse(`{"history":{"notes":[${line}`) as typeof tail;
					state = "done";
				} else {
					const json = line.endsWith(",") ? line.slice(0, -1) : line;
					notes.push(storedNote(json) ?? JSON.parse(json));
				}
			} else if (state === "done" && line !== "") state = "wrong";
			// Once wrong, the rest of the file is skipped: it is read whole instead.
			return state !== "wrong";
		})
		.catch(() => false);
	if (!found || state !== "done") return null;
	return { history: { version: 1, notes }, bases: tail.bases, journalSeq: journalSeqOf(tail), chars };
}

/** The file's journalSeq, when it names one. */
export function journalSeqOf(file: { journalSeq?: unknown } | null | undefined): number | undefined {
	const seq = file?.journalSeq;
	return typeof seq === "number" && Number.isSafeInteger(seq) && seq > 0 ? seq : undefined;
}
