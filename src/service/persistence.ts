/**
 * Loads and saves the plugin's own state (revision history, the base index, conflict records) through a
 * StateStorage. History saves are debounced; conflict records are saved at once because they point at .bak notes
 * a person may need.
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

export class StatePersistence {
	private timer: unknown = null;
	private saving: Promise<void> = Promise.resolve();

	constructor(
		private readonly storage: StateStorage,
		private readonly snapshot: () => { history: unknown; bases: unknown },
		private readonly conflictSnapshot: () => unknown,
		private readonly timers: Timers,
		private readonly debounceMs = 1000,
	) {}

	async load(): Promise<PersistedState> {
		const [history, conflicts] = await Promise.all([this.readJson(HISTORY_FILE), this.readJson(CONFLICTS_FILE)]);
		const historyFile = (history ?? {}) as { history?: unknown; bases?: unknown };
		return { history: historyFile.history, bases: historyFile.bases, conflicts };
	}

	/** Schedules a history save. */
	markDirty(): void {
		if (this.timer) return;
		this.timer = this.timers.schedule(() => {
			this.timer = null;
			void this.saveHistory();
		}, this.debounceMs);
	}

	async saveConflicts(): Promise<void> {
		await this.chain(() => this.storage.write(CONFLICTS_FILE, JSON.stringify(this.conflictSnapshot())));
	}

	/** Writes everything pending now (shutdown, tests). */
	async flush(): Promise<void> {
		if (this.timer !== null) this.timers.cancel(this.timer);
		this.timer = null;
		await this.saveHistory();
		await this.saveConflicts();
	}

	blobs(): BlobStorage {
		return {
			read: (key) => this.storage.read(BASES_PREFIX + key),
			// Bases are content-addressed and verified on read, so they need no fsync.
			write: (key, content) => this.storage.write(BASES_PREFIX + key, content, { durable: false }),
			remove: (key) => this.storage.remove(BASES_PREFIX + key),
		};
	}

	private saveHistory(): Promise<void> {
		return this.chain(() => this.storage.write(HISTORY_FILE, JSON.stringify(this.snapshot())));
	}

	/** Saves run one at a time so an older snapshot can never land after a newer one. */
	private chain(save: () => Promise<void>): Promise<void> {
		this.saving = this.saving.then(save, save);
		return this.saving;
	}

	private async readJson(name: string): Promise<unknown> {
		const text = await this.storage.read(name);
		if (text === null) return null;
		try {
			return JSON.parse(text) as unknown;
		} catch {
			// A damaged state file must not stop the plugin; keep the evidence and start fresh.
			await this.storage.write(`${name}.damaged-${Date.now()}`, text);
			return null;
		}
	}
}
