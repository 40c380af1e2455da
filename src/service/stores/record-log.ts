/**
 * A log of records kept across restarts (conflicts, proposals): one record per id in the order they came, capped,
 * observed (`onChange`) and journaled (`onSave`: every change as it must be saved, so that replaying the changes in
 * order over the snapshot they followed gives the log back). What a record holds and when it is settled is the
 * subclass's; the keeping, capping and journaling are here, once.
 */

/** One change as it is saved: a record as it now stands, or the id of one that is gone. */
export type RecordChange<R> = { put: R } | { remove: string };

export interface RecordSnapshot<R> {
	version: 1;
	records: R[];
}

export interface RecordLogRules<R> {
	/** Whether a value read back from disk is a whole record (anything else is left out). */
	isRecord(value: unknown): value is R;
	/** A settled record is dropped before any unsettled one when the log is over its cap. */
	settled(record: R): boolean;
}

export abstract class RecordLog<R extends { id: string; path: string }> {
	protected readonly records = new Map<string, R>();
	private readonly listeners = new Set<(record: R) => void>();
	private readonly savers = new Set<(change: RecordChange<R>) => void>();

	protected constructor(
		private readonly rules: RecordLogRules<R>,
		private readonly maxRecords: number,
	) {}

	add(record: R): void {
		this.records.set(record.id, record);
		this.save({ put: record });
		for (const id of this.trim()) this.save({ remove: id });
		this.emit(record);
	}

	get(id: string): R | undefined {
		return this.records.get(id);
	}

	onChange(listener: (record: R) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Every change as it must be saved (additions, changes, moves, and records dropped to stay within the cap). */
	onSave(saver: (change: RecordChange<R>) => void): () => void {
		this.savers.add(saver);
		return () => this.savers.delete(saver);
	}

	/**
	 * Applies saved changes (at load) without announcing them. Replaying changes that a snapshot already holds
	 * changes nothing: each one sets a record or removes it, whatever was there.
	 */
	replay(changes: readonly unknown[]): void {
		for (const change of changes) {
			const { put, remove } = (change ?? {}) as { put?: unknown; remove?: unknown };
			if (this.rules.isRecord(put)) this.records.set(put.id, put);
			else if (typeof remove === "string") this.records.delete(remove);
		}
		this.trim();
	}

	toSnapshot(): RecordSnapshot<R> {
		return { version: 1, records: [...this.records.values()] };
	}

	/** Fills an empty log from a saved snapshot, leaving out anything that is not a whole record. */
	protected load(snapshot: unknown): this {
		const records = (snapshot as Partial<RecordSnapshot<R>> | null)?.records;
		if (Array.isArray(records))
			for (const record of records) if (this.rules.isRecord(record)) this.records.set(record.id, record);
		return this;
	}

	/** The records that `keep` accepts, newest first, in one pass with no copy of the whole log. */
	protected newestFirst(keep: (record: R) => boolean): R[] {
		const found: R[] = [];
		for (const record of this.records.values()) if (keep(record)) found.push(record);
		return found.reverse();
	}

	protected count(keep: (record: R) => boolean): number {
		let count = 0;
		for (const record of this.records.values()) if (keep(record)) count++;
		return count;
	}

	/** Saves a record changed in place, and announces it. */
	protected changed(record: R): void {
		this.save({ put: record });
		this.emit(record);
	}

	/** A moved note's records follow it (saved, not announced); returns the records moved. */
	protected follow(from: string, to: string): R[] {
		const moved: R[] = [];
		for (const record of this.records.values()) {
			if (record.path !== from) continue;
			record.path = to;
			this.save({ put: record });
			moved.push(record);
		}
		return moved;
	}

	protected emit(record: R): void {
		for (const listener of this.listeners) listener(record);
	}

	/** Drops the oldest settled records first; unsettled ones only when nothing settled is left. Returns their ids. */
	private trim(): string[] {
		const dropped: string[] = [];
		for (const pass of ["settled", "any"] as const) {
			for (const [id, record] of this.records) {
				if (this.records.size <= this.maxRecords) return dropped;
				if (pass === "settled" && !this.rules.settled(record)) continue;
				this.records.delete(id);
				dropped.push(id);
			}
		}
		return dropped;
	}

	private save(change: RecordChange<R>): void {
		for (const saver of this.savers) saver(change);
	}
}
