/**
 * A bounded, content-addressed store of note contents keyed by revision: the merge bases. Least-recently-used
 * entries are evicted once the total passes the cap. Where the bytes live is the caller's business (a BlobStorage
 * in the plugin folder, or in the headless host's dot-folder); a small in-memory cache keeps hot bases close.
 * Blobs are written in the background (a read is never held up by one) and checked against their revision when
 * read back, so a blob torn by a crash is dropped, never served.
 */
import { LruList } from "../../core/lru-list";
import { revisionOf } from "../../core/revision";
import { utf8Length } from "../../core/utf8";

export interface BlobStorage {
	read(key: string): Promise<string | null>;
	write(key: string, content: string): Promise<void>;
	remove(key: string): Promise<void>;
	/** Forgets every blob `wanted` says no to (a storage that does not record removals asks the index at start-up). */
	retainOnly?(wanted: (key: string) => boolean): Promise<void>;
	/** Writes what waits and lets go of open files (shutdown). */
	close?(): Promise<void>;
}

export interface BaseIndexSnapshot {
	/** [revision, byte size] pairs, least recently used first. */
	entries: [string, number][];
}

/**
 * One change to the index, in order: [revision, size] is that revision made the most recently used (added or touched),
 * a revision alone is that revision forgotten. Replayed over a snapshot, they give the index as it now is.
 */
export type BaseIndexChange = [string, number] | string;

/** Past this many changes untaken, the list is dropped and takeIndexChanges says to save the whole index instead. */
const MAX_UNTAKEN_CHANGES = 100_000;

const SETTLED = Promise.resolve();

export class BaseStore {
	/** revision → byte size, least recently used first. */
	private readonly index = new LruList<number>();
	private totalBytes = 0;
	private readonly cache = new LruList<string>();
	private cacheBytes = 0;
	/** Bases that undo and open conflicts still need: evicted only when nothing else is left to evict. */
	private isPinned: (revision: string) => boolean = () => false;
	/** Blob writes still in flight, so a read or removal of the same key waits for its write. */
	private readonly pending = new Map<string, Promise<void>>();
	/** The index's changes since the last takeIndexChanges; null once too many went untaken. */
	private changes: BaseIndexChange[] | null = [];

	constructor(
		private readonly storage: BlobStorage,
		private capBytes: number,
		private readonly cacheCapBytes = 8 * 1024 * 1024,
	) {}

	/**
	 * Keeps `content` as the base for `revision` (which must be its token). Every accepted write retains two bases (what
	 * it wrote and what it replaced), so this is written to settle at once when nothing needs evicting.
	 */
	retain(revision: string, content: string): Promise<void> {
		const known = this.index.get(revision);
		if (known !== undefined) {
			// Every read retains its note: an already-kept base only moves up, with no re-encoding on the hot path.
			this.touch(revision);
			this.remember(revision, content, known);
			return SETTLED;
		}
		const size = utf8Length(content);
		// Indexed before any await, so a concurrent retain of the same revision counts it once.
		this.index.set(revision, size);
		this.changed([revision, size]);
		this.totalBytes += size;
		this.remember(revision, content, size);
		const done = () => {
			if (this.pending.get(revision) === write) this.pending.delete(revision);
		};
		const write: Promise<void> = startWrite(this.storage, revision, content).then(done, () => {
			// Unwritable storage: keep serving from memory while cached, then forget rather than promise a base.
			if (!this.cache.has(revision)) this.forget(revision);
			done();
		});
		this.pending.set(revision, write);
		return this.totalBytes > this.capBytes ? this.evict(revision) : SETTLED;
	}

	/** Waits for background blob writes (tests, shutdown). */
	async settle(): Promise<void> {
		while (this.pending.size > 0) await Promise.all([...this.pending.values()]);
	}

	async get(revision: string): Promise<string | null> {
		if (!this.index.has(revision)) return null;
		this.touch(revision);
		const cached = this.cache.get(revision);
		if (cached !== undefined) return cached;
		await this.pending.get(revision);
		const content = await this.storage.read(revision).catch(() => null);
		if (content === null || revisionOf(content) !== revision) {
			// Missing or damaged behind our back: forget it rather than promise a base we cannot give.
			this.forget(revision);
			await this.storage.remove(revision).catch(() => undefined);
			return null;
		}
		this.remember(revision, content, this.index.get(revision) ?? content.length);
		return content;
	}

	has(revision: string): boolean {
		return this.index.has(revision);
	}

	/** Says which revisions are pinned (asked only while the store is over its cap). */
	setPinned(isPinned: (revision: string) => boolean): void {
		this.isPinned = isPinned;
	}

	async setCap(capBytes: number): Promise<void> {
		this.capBytes = capBytes;
		await this.evict(null);
	}

	stats(): { entries: number; bytes: number; capBytes: number; cachedBytes: number } {
		return { entries: this.index.size, bytes: this.totalBytes, capBytes: this.capBytes, cachedBytes: this.cacheBytes };
	}

	toSnapshot(): BaseIndexSnapshot {
		return { entries: this.index.entries() };
	}

	/** The index's changes since the last call, in order; null when they were too many to keep (save it whole). */
	takeIndexChanges(): BaseIndexChange[] | null {
		const changes = this.changes;
		this.changes = [];
		return changes;
	}

	load(snapshot: unknown): void {
		if (typeof snapshot !== "object" || snapshot === null || !Array.isArray((snapshot as BaseIndexSnapshot).entries))
			return;
		for (const entry of (snapshot as BaseIndexSnapshot).entries) {
			if (!Array.isArray(entry) || typeof entry[0] !== "string" || !Number.isFinite(entry[1]) || entry[1] < 0) continue;
			if (this.index.has(entry[0])) continue;
			this.index.set(entry[0], entry[1]);
			this.totalBytes += entry[1];
		}
	}

	private touch(revision: string): void {
		const size = this.index.get(revision);
		if (size === undefined || !this.index.touch(revision)) return;
		this.changed([revision, size]);
	}

	private changed(change: BaseIndexChange): void {
		if (this.changes === null) return;
		if (this.changes.length >= MAX_UNTAKEN_CHANGES) this.changes = null;
		else this.changes.push(change);
	}

	/**
	 * Evicts least-recently-used bases over the cap, never the one just retained: unpinned ones first, then pinned
	 * ones too if the cap is still exceeded (the cap is a promise about disk use; pinning only changes the order).
	 */
	private async evict(keep: string | null): Promise<void> {
		// One at a time, looked up afresh after each drop (a drop waits, and other retains may come meanwhile); the
		// usual case is one or two evictions, of entries at the very front.
		while (this.totalBytes > this.capBytes) {
			const victim =
				this.index.findFromOldest((revision) => revision !== keep && !this.isPinned(revision)) ??
				this.index.findFromOldest((revision) => revision !== keep);
			if (victim === null) return;
			await this.drop(victim);
		}
	}

	private async drop(revision: string): Promise<void> {
		if (!this.index.has(revision)) return;
		this.forget(revision);
		await this.pending.get(revision);
		await this.storage.remove(revision).catch(() => undefined);
	}

	private forget(revision: string): void {
		const size = this.index.delete(revision);
		if (size === undefined) return;
		this.changed(revision);
		this.totalBytes -= size;
		const cached = this.cache.delete(revision);
		if (cached !== undefined) this.cacheBytes -= cached.length;
	}

	private remember(revision: string, content: string, size: number): void {
		if (size > this.cacheCapBytes) return;
		const previous = this.cache.get(revision);
		if (previous !== undefined) this.cacheBytes -= previous.length;
		this.cache.set(revision, content);
		this.cacheBytes += content.length;
		while (this.cacheBytes > this.cacheCapBytes) {
			const oldest = this.cache.oldest()!;
			this.cache.delete(oldest.key);
			this.cacheBytes -= oldest.value.length;
		}
	}
}

/** A storage's write as a promise, even when it throws before it has one. */
function startWrite(storage: BlobStorage, key: string, content: string): Promise<void> {
	try {
		return storage.write(key, content);
	} catch (error) {
		return Promise.reject(error instanceof Error ? error : new Error(String(error)));
	}
}
