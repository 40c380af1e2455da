/**
 * Loads and saves the plugin's own state (revision history, the base index, conflict records) through a
 * StateStorage. History saves are debounced; each conflict record change is appended to a log at once, because
 * records point at .bak notes a person may need (see conflict-journal.ts).
 */
import type { BlobStorage } from "../stores/base-store";
import type { ConflictChange } from "../stores/conflict-log";
import type { Timers } from "../../core/timers";
import type { StateStorage } from "../../vault/gateway";
import { revisionOf } from "../../core/revision";
import { historyFileText, readHistoryFileByLine } from "./history-file";
import { ConflictJournal, loadConflicts, type JournalFiles, type SavedConflicts } from "../conflicts/conflict-journal";

const HISTORY_FILE = "history.json";
const BASES_PREFIX = "bases/";
/** Proposals (core/proposals.ts) are journaled as conflict records are, in files of their own. */
export const PROPOSAL_FILES: JournalFiles = { snapshot: "proposals.json", log: "proposals.jsonl" };

export interface PersistedState {
	history: unknown;
	bases: unknown;
	conflicts: SavedConflicts;
	proposals: SavedConflicts;
}

/** Reads the saved state; a damaged file is kept aside as evidence and read as nothing. */
export async function loadState(storage: StateStorage): Promise<PersistedState> {
	const parse = (name: string, text: string) => parseOrKeep(storage, name, text);
	const [history, conflicts, proposals] = await Promise.all([
		readHistoryFileByLine(storage, HISTORY_FILE).then((file) => file ?? readJson(storage, HISTORY_FILE)),
		loadConflicts(storage, parse),
		loadConflicts(storage, parse, PROPOSAL_FILES),
	]);
	const historyFile = (history ?? {}) as { history?: unknown; bases?: unknown };
	return { history: historyFile.history, bases: historyFile.bases, conflicts, proposals };
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
	/** A hash of the history file as this run last wrote it; null before its first write. */
	private writtenHistory: string | null = null;
	/**
	 * The last history write failed: it may have left its text in the file without making it durable (a rename whose
	 * folder fsync failed), so the next save writes whatever the file holds.
	 */
	private historyInDoubt = false;
	private readonly conflicts: ConflictJournal;

	constructor(
		private readonly storage: StateStorage,
		private readonly snapshot: () => { history: unknown; bases: unknown },
		conflictSnapshot: () => unknown,
		private readonly timers: Timers,
		private readonly debounceMs = 1000,
		savedConflicts?: Pick<SavedConflicts, "logged" | "snapshotBytes" | "lastSeq">,
		/** A scheduled save that failed (the disk refused it): reported, and the next save writes it all again. */
		private readonly onError?: (error: unknown) => void,
	) {
		this.conflicts = new ConflictJournal(storage, conflictSnapshot, savedConflicts);
	}

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

	/** Writes everything pending now (shutdown, tests). */
	async flush(): Promise<void> {
		if (this.timer !== null) this.timers.cancel(this.timer);
		this.timer = null;
		await this.saveHistory();
		await this.conflicts.compact();
	}

	/**
	 * Writes the history unless the file already holds exactly this text: a start and a close that changed nothing
	 * leave it untouched. Whether it does is found from the text itself, so no change can be missed by a caller that
	 * forgot to say it changed something: compared with the file itself before this run's first write, and with a hash
	 * of what this run last wrote after it.
	 */
	private saveHistory(): Promise<void> {
		return this.chain(async () => {
			const text = historyFileText(this.snapshot());
			// After a failed write, written again whatever the file holds: that write may have put this very text there.
			if (!this.historyInDoubt && (await this.historyHolds(text))) return;
			// Forgotten first: a write that fails may have changed the file or not.
			this.writtenHistory = null;
			this.historyInDoubt = true;
			await this.storage.write(HISTORY_FILE, text);
			this.historyInDoubt = false;
			this.writtenHistory = revisionOf(text);
		});
	}

	/** Whether the history file holds `text`: the file itself before this run's first write, a hash after it. */
	private async historyHolds(text: string): Promise<boolean> {
		if (this.writtenHistory !== null) return revisionOf(text) === this.writtenHistory;
		return (await this.storage.read(HISTORY_FILE).catch(() => null)) === text;
	}

	/** Saves run one at a time so an older snapshot can never land after a newer one. */
	private chain(save: () => Promise<void>): Promise<void> {
		this.saving = this.saving.then(save, save);
		return this.saving;
	}
}

async function readJson(storage: StateStorage, name: string): Promise<unknown> {
	const text = await storage.read(name);
	return text === null ? null : parseOrKeep(storage, name, text);
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
