/**
 * Loads and saves the plugin's own state (revision history, the base index, conflict records) through a
 * StateStorage. History saves are debounced; each conflict record change is appended to a log at once, because
 * records point at .bak notes a person may need (see conflict-journal.ts).
 */
import type { BlobStorage } from "../stores/base-store";
import type { ConflictChange } from "../stores/conflict-log";
import type { Timers } from "../../core/timers";
import type { StateStorage } from "../../vault/gateway";
import { historyFileText, journalSeqOf, readHistoryFileByLine, type HistoryFile } from "./history-file";
import { HISTORY_JOURNAL_FILE, journalLine, loadJournal, replayJournal, type HistoryChanges } from "./history-journal";
import { ConflictJournal, loadConflicts, type JournalFiles, type SavedConflicts } from "../conflicts/conflict-journal";

const HISTORY_FILE = "history.json";
const BASES_PREFIX = "bases/";
/** The history's journal is folded into history.json once it is larger than this or than a fraction of that file. */
const MIN_FOLD_BYTES = 64 * 1024;
const FOLD_FRACTION = 8;
/** Proposals (core/proposals.ts) are journaled as conflict records are, in files of their own. */
export const PROPOSAL_FILES: JournalFiles = { snapshot: "proposals.json", log: "proposals.jsonl" };

export interface PersistedState {
	history: unknown;
	bases: unknown;
	conflicts: SavedConflicts;
	proposals: SavedConflicts;
	journal: SavedJournal;
}

/** Where the history's journal stood at load (history-journal.ts). */
export interface SavedJournal {
	/** Whether history.json names the journal lines it holds: only then may lines be appended after it. */
	named: boolean;
	/** Whether the journal held anything (it may end in half a line: it is folded before anything is appended). */
	present: boolean;
	lastSeq: number;
	/** history.json's size in characters (the journal is folded when it grows past a fraction of it). */
	historyChars: number;
	/** Whether there was a history.json (when there was none, the first save writes one, changed or not). */
	found: boolean;
}

/** Reads the saved state; a damaged file is kept aside as evidence and read as nothing. */
export async function loadState(storage: StateStorage): Promise<PersistedState> {
	const parse = (name: string, text: string) => parseOrKeep(storage, name, text);
	const [history, conflicts, proposals] = await Promise.all([
		readHistoryFileByLine(storage, HISTORY_FILE).then((file) => file ?? readHistoryWhole(storage)),
		loadConflicts(storage, parse),
		loadConflicts(storage, parse, PROPOSAL_FILES),
	]);
	const historyFile = (history ?? {}) as Partial<HistoryFile> & { chars?: number };
	const held = journalSeqOf(historyFile);
	const journal = await loadJournal(storage, held);
	const replayed = replayJournal(historyFile.history, historyFile.bases, journal.saves);
	return {
		history: replayed.history,
		bases: replayed.bases,
		conflicts,
		proposals,
		journal: {
			named: held !== undefined,
			present: journal.present,
			lastSeq: journal.lastSeq,
			historyChars: historyFile.chars ?? 0,
			found: history !== null && history !== undefined,
		},
	};
}

/** Where merge bases are kept: content-addressed files beside the state. */
export function blobStorage(storage: StateStorage): BlobStorage {
	return {
		read: (key) => storage.read(BASES_PREFIX + key, { durable: false }),
		// Bases are content-addressed and verified on read, so they need no fsync.
		write: (key, content) => storage.write(BASES_PREFIX + key, content, { durable: false }),
		remove: (key) => storage.remove(BASES_PREFIX + key),
	};
}

export class StatePersistence {
	private timer: unknown = null;
	private saving: Promise<void> = Promise.resolve();
	private readonly conflicts: ConflictJournal;

	constructor(
		private readonly storage: StateStorage,
		private readonly snapshot: () => { history: unknown; bases: unknown },
		conflictSnapshot: () => unknown,
		private readonly timers: Timers,
		/** What changed since the last save (the history's and the base index's changes): what a save appends. */
		private readonly changes: () => HistoryChanges,
		savedJournal: SavedJournal,
		private readonly debounceMs = 1000,
		savedConflicts?: Pick<SavedConflicts, "logged" | "snapshotBytes" | "lastSeq">,
		/** A scheduled save that failed (the disk refused it): reported, and the next save writes it all again. */
		private readonly onError?: (error: unknown) => void,
	) {
		this.conflicts = new ConflictJournal(storage, conflictSnapshot, savedConflicts);
		this.seq = savedJournal.lastSeq;
		this.appendable = savedJournal.named && !savedJournal.present;
		this.journalPresent = savedJournal.present;
		this.historyChars = savedJournal.historyChars;
		this.unsaved = !savedJournal.found;
	}

	/** The last journal sequence number used (appended, or attempted): history.json folds in every line up to it. */
	private seq: number;
	/** Whether a save may append to the journal: history.json names its lines and the journal ends in a whole line. */
	private appendable: boolean;
	/** Whether the journal file may exist with something in it (a fold removes it). */
	private journalPresent: boolean;
	private journalChars = 0;
	private historyChars: number;
	/**
	 * Changes were taken from the history but not durably saved (a save failed), or there is no history.json yet: only
	 * a whole write saves them now.
	 */
	private unsaved: boolean;

	/** Schedules a history save. */
	markDirty(): void {
		if (this.timer) return;
		this.timer = this.timers.schedule(() => {
			this.timer = null;
			this.saveHistory().catch((error: unknown) => this.onError?.(error));
		}, this.debounceMs);
	}

	/** Saves one conflict record change (the log's save listener calls this, synchronously, at each change). */
	saveConflictChange(change: ConflictChange): void {
		this.conflicts.record(change);
	}

	/** Resolves once every conflict change so far is on storage (a refusal awaits this before it is answered). */
	conflictsSaved(): Promise<void> {
		return this.conflicts.saved();
	}

	/** Folds the conflict log into its snapshot (at load, when a log was left). */
	compactConflicts(): Promise<void> {
		return this.conflicts.compact();
	}

	/** Saves what changed now, as a scheduled save does (tests). */
	save(): Promise<void> {
		return this.saveHistory();
	}

	/** Writes everything pending now (shutdown, tests). */
	async flush(): Promise<void> {
		if (this.timer !== null) this.timers.cancel(this.timer);
		this.timer = null;
		await this.saveHistory(true);
		await this.conflicts.compact();
	}

	/** Saves what changed (saveChanges); a start and a close that changed nothing write nothing. */
	private saveHistory(closing = false): Promise<void> {
		return this.chain(() => this.saveChanges(this.changes, closing));
	}

	/**
	 * Appends what changed to the journal (history-journal.ts); writes history.json whole instead (a fold) when the
	 * journal would grow past its share, when appending is not safe (see `appendable`), and at close (so an older
	 * version of the plugin, which reads history.json only, finds the history as it was left).
	 */
	private async saveChanges(take: () => HistoryChanges, closing: boolean): Promise<void> {
		const changes = take();
		const changed = changes.notes.length > 0 || changes.gone.length > 0 || changes.bases?.length !== 0;
		if (!changed && !this.unsaved && !(closing && this.journalPresent)) return;
		const appendFirst = this.appendable && !closing && changes.bases !== null;
		this.unsaved = true;
		if (appendFirst) {
			const line = journalLine(this.seq + 1, changes);
			if (this.journalChars + line.length <= Math.max(MIN_FOLD_BYTES, this.historyChars / FOLD_FRACTION)) {
				this.seq++;
				this.journalPresent = true;
				// Until it succeeds, the journal may end in part of this line: nothing more is appended after it.
				this.appendable = false;
				await this.storage.append(HISTORY_JOURNAL_FILE, line);
				this.journalChars += line.length;
				this.appendable = true;
				this.unsaved = false;
				return;
			}
		}
		await this.fold();
		this.unsaved = false;
	}

	/**
	 * Writes history.json whole, naming every journal line so far as held by it, then removes the journal. A crash
	 * between the two leaves lines history.json holds already: skipped when read (never replayed over it).
	 */
	private async fold(): Promise<void> {
		this.appendable = false;
		const seq = this.seq + 1;
		const text = historyFileText({ ...this.snapshot(), journalSeq: seq });
		await this.storage.write(HISTORY_FILE, text);
		this.seq = seq;
		this.historyChars = text.length;
		if (this.journalPresent) await this.storage.remove(HISTORY_JOURNAL_FILE);
		this.journalPresent = false;
		this.journalChars = 0;
		this.appendable = true;
	}

	/** Saves run one at a time so an older snapshot can never land after a newer one. */
	private chain(save: () => Promise<void>): Promise<void> {
		this.saving = this.saving.then(save, save);
		return this.saving;
	}
}

/** history.json read whole (a storage that cannot read by line, or another layout), with its size. */
async function readHistoryWhole(storage: StateStorage): Promise<unknown> {
	const text = await storage.read(HISTORY_FILE);
	if (text === null) return null;
	const parsed = await parseOrKeep(storage, HISTORY_FILE, text);
	return typeof parsed === "object" && parsed !== null ? { ...parsed, chars: text.length } : parsed;
}

async function parseOrKeep(storage: StateStorage, name: string, text: string): Promise<unknown> {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		// A damaged state file must not stop the plugin; keep the evidence and start fresh.
		await storage.write(`${name}.damaged-${Date.now()}`, text);
		return null;
	}
}
