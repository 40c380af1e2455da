/**
 * Loads and saves the plugin's own state (revision history, the base index, conflict records) through a
 * StateStorage. History saves are debounced; conflict records are saved at once (one save per change) because they
 * point at .bak notes a person may need.
 */
import type { BlobStorage } from "../core/base-store";
import type { Timers } from "../core/timers";
import type { StateStorage } from "../vault/gateway";

const HISTORY_FILE = "history.json";
const CONFLICTS_FILE = "conflicts.json";
const BASES_PREFIX = "bases/";

export interface PersistedState {
	history: unknown;
	bases: unknown;
	conflicts: unknown;
}

/** Reads the saved state; a damaged file is kept aside as evidence and read as nothing. */
export async function loadState(storage: StateStorage): Promise<PersistedState> {
	const [history, conflicts] = await Promise.all([readJson(storage, HISTORY_FILE), readJson(storage, CONFLICTS_FILE)]);
	const historyFile = (history ?? {}) as { history?: unknown; bases?: unknown };
	return { history: historyFile.history, bases: historyFile.bases, conflicts };
}

/** Where merge bases are kept: content-addressed files beside the state. */
export function blobStorage(storage: StateStorage): BlobStorage {
	return {
		read: (key) => storage.read(BASES_PREFIX + key),
		// Bases are content-addressed and verified on read, so they need no fsync.
		write: (key, content) => storage.write(BASES_PREFIX + key, content, { durable: false }),
		remove: (key) => storage.remove(BASES_PREFIX + key),
	};
}

export class StatePersistence {
	private timer: unknown = null;
	private saving: Promise<void> = Promise.resolve();
	private conflictsSaving: Promise<void> = Promise.resolve();

	constructor(
		private readonly storage: StateStorage,
		private readonly snapshot: () => { history: unknown; bases: unknown },
		private readonly conflictSnapshot: () => unknown,
		private readonly timers: Timers,
		private readonly debounceMs = 1000,
	) {}

	/** Schedules a history save. */
	markDirty(): void {
		if (this.timer) return;
		this.timer = this.timers.schedule(() => {
			this.timer = null;
			void this.saveHistory();
		}, this.debounceMs);
	}

	/** Saves the conflict records (call once per change: the log's change listener does). */
	saveConflicts(): Promise<void> {
		this.conflictsSaving = this.chain(() => this.storage.write(CONFLICTS_FILE, JSON.stringify(this.conflictSnapshot())));
		return this.conflictsSaving;
	}

	/** Resolves once the latest conflict change is on storage (a refusal awaits this before it is answered). */
	conflictsSaved(): Promise<void> {
		return this.conflictsSaving;
	}

	/** Writes everything pending now (shutdown, tests). */
	async flush(): Promise<void> {
		if (this.timer !== null) this.timers.cancel(this.timer);
		this.timer = null;
		await this.saveHistory();
		await this.saveConflicts();
	}

	private saveHistory(): Promise<void> {
		return this.chain(() => this.storage.write(HISTORY_FILE, JSON.stringify(this.snapshot())));
	}

	/** Saves run one at a time so an older snapshot can never land after a newer one. */
	private chain(save: () => Promise<void>): Promise<void> {
		this.saving = this.saving.then(save, save);
		return this.saving;
	}

}

async function readJson(storage: StateStorage, name: string): Promise<unknown> {
	const text = await storage.read(name);
	if (text === null) return null;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		// A damaged state file must not stop the plugin; keep the evidence and start fresh.
		await storage.write(`${name}.damaged-${Date.now()}`, text);
		return null;
	}
}
