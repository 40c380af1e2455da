/**
 * The headless host's merge bases, packed: records appended to a few segment files in `bases/`, not one file per
 * base. A file per accepted write put a new inode and folder entry into the journal beside every note's own fsyncs,
 * on the main thread (up to ~90 µs a write in a young folder), and every eviction cost a removal and a folder fsync.
 * Here records are gathered for a moment and written with one call on the thread pool.
 *
 * Bases are a cache: BaseStore checks every base it reads against its revision, so a torn or missing record costs a
 * merge, never a note (a write that cannot be merged is refused with its body kept). That is why nothing here is
 * fsynced, and why a base still waiting to be written when the process dies is simply not there afterwards.
 * The record format is in base-pack-format.ts.
 */
import { promises as fs } from "fs";
import type { FileHandle } from "fs/promises";
import { join } from "path";
import type { BlobStorage } from "../service/stores/base-store";
import type { Timers } from "../core/timers";
import { BatchedSegmentWriter } from "./base-pack-writer";
import { encodeRecord, isPackKey, scanSegment, segmentName, segmentNumber, type RecordPlace } from "./base-pack-format";

/** A sealed segment whose live records fill less than this share of it is compacted (they are written again). */
const COMPACT_BELOW = 0.5;

interface Location extends Omit<RecordPlace, "key"> {
	segment: number;
	/** The content while its record waits to be written. */
	pending?: string;
}

interface Segment {
	size: number;
	live: number;
}

export class PackedBlobStorage implements BlobStorage {
	private readonly locations = new Map<string, Location>();
	private readonly segments = new Map<number, Segment>();
	/** Bases an older version kept one file each: still read, and removed when evicted. */
	private readonly legacy = new Set<string>();
	/** Segments are deleted and compacted one at a time, in the background: an eviction never waits for it. */
	private reclaiming: Promise<void> = Promise.resolve();
	private active: number;
	private readonly writer: BatchedSegmentWriter;

	private constructor(
		private readonly folder: string,
		private readonly segmentBytes: number,
		timers: Timers,
		active: { number: number; file: FileHandle },
	) {
		this.active = active.number;
		this.writer = new BatchedSegmentWriter(folder, timers, active);
		this.segments.set(this.active, { size: 0, live: 0 });
	}

	/** Opens the pack in `folder`, reading where every record is (a torn last record is ignored). */
	static async open(
		folder: string,
		timers: Timers,
		options: { segmentBytes?: number } = {},
	): Promise<PackedBlobStorage> {
		await fs.mkdir(folder, { recursive: true, mode: 0o700 });
		const names = await fs.readdir(folder);
		const numbers = names
			.map(segmentNumber)
			.filter((n): n is number => n !== null)
			.sort((a, b) => a - b);
		// Appends go to a segment of its own every run, created here so that no other process appends to it too (a
		// segment torn by a crash is never written after).
		let number = (numbers.at(-1) ?? 0) + 1;
		let file: FileHandle | null = null;
		while (file === null) {
			file = await fs.open(join(folder, segmentName(number)), "wx", 0o600).catch((error: NodeJS.ErrnoException) => {
				if (error.code !== "EEXIST") throw error;
				number++;
				return null;
			});
		}
		const pack = new PackedBlobStorage(folder, options.segmentBytes ?? 8 * 1024 * 1024, timers, { number, file });
		for (const name of names)
			if (!name.startsWith(".") && segmentNumber(name) === null && isPackKey(name)) pack.legacy.add(name);
		for (const number of numbers) {
			// A segment that cannot be read holds no base we can serve; it is left alone.
			const bytes = await fs.readFile(join(folder, segmentName(number))).catch(() => null);
			if (bytes !== null) pack.index(number, bytes);
		}
		return pack;
	}

	async write(key: string, content: string): Promise<void> {
		if (!isPackKey(key)) throw new Error(`Not a base key: ${key}`);
		// Content-addressed: a key already packed holds this very content.
		if (this.locations.has(key)) return;
		const { bytes, contentOffset, contentLength } = encodeRecord(key, content);
		let segment = this.segments.get(this.active)!;
		if (segment.size > 0 && segment.size + bytes.length > this.segmentBytes) segment = this.roll();
		const start = segment.size;
		segment.size += bytes.length;
		segment.live += bytes.length;
		const location: Location = {
			segment: this.active,
			offset: start + contentOffset,
			length: contentLength,
			recordBytes: bytes.length,
			pending: content,
		};
		this.locations.set(key, location);
		return this.writer.append({ segment: this.active, start, bytes }).then(
			() => {
				delete location.pending;
			},
			(error: unknown) => {
				// Nothing of that batch is promised any more: the base is forgotten (BaseStore drops it too).
				if (this.locations.get(key) === location) this.forget(key, location);
				throw error;
			},
		);
	}

	async read(key: string): Promise<string | null> {
		const location = this.locations.get(key);
		if (location === undefined)
			return this.legacy.has(key) ? fs.readFile(join(this.folder, key), "utf8").catch(() => null) : null;
		if (location.pending !== undefined) return location.pending;
		const content = await this.readRecord(location);
		// Compaction may have moved the record and deleted its segment meanwhile: read it where it is now.
		const now = this.locations.get(key);
		return content === null && now !== undefined && now !== location ? this.read(key) : content;
	}

	private async readRecord(location: Location): Promise<string | null> {
		const handle = await fs.open(join(this.folder, segmentName(location.segment)), "r").catch(() => null);
		if (handle === null) return null;
		try {
			const buffer = Buffer.alloc(location.length);
			const { bytesRead } = await handle.read(buffer, 0, location.length, location.offset);
			return bytesRead === location.length ? buffer.toString("utf8") : null;
		} catch {
			return null;
		} finally {
			await handle.close().catch(() => undefined);
		}
	}

	async remove(key: string): Promise<void> {
		if (this.legacy.delete(key)) await fs.rm(join(this.folder, key), { force: true });
		const location = this.locations.get(key);
		if (location === undefined) return;
		this.forget(key, location);
		this.reclaimLater(location.segment);
	}

	/**
	 * Forgets every base `wanted` says no to: the pack does not record removals, so after a restart the caller's own
	 * index (saved with the history) says which bases are still kept, and the rest of the space is reclaimed.
	 */
	async retainOnly(wanted: (key: string) => boolean): Promise<void> {
		const touched = new Set<number>();
		for (const [key, location] of this.locations) {
			if (wanted(key)) continue;
			this.forget(key, location);
			touched.add(location.segment);
		}
		for (const number of this.segments.keys())
			if (number !== this.active && this.segments.get(number)!.live <= 0) touched.add(number);
		for (const key of this.legacy) {
			if (wanted(key)) continue;
			this.legacy.delete(key);
			this.reclaiming = this.reclaiming
				.then(() => fs.rm(join(this.folder, key), { force: true }))
				.catch(() => undefined);
		}
		for (const number of touched) this.reclaimLater(number);
	}

	/** Resolves once what waits is written and space is reclaimed (tests, shutdown). */
	async settle(): Promise<void> {
		await this.flush();
		await this.reclaiming;
		await this.flush();
	}

	/** Writes whatever waits, finishes reclaiming space and closes the segment file held open. */
	async close(): Promise<void> {
		await this.settle();
		await this.writer.close();
	}

	/** Writes the waiting records now; resolves once every batch so far is written. */
	flush(): Promise<void> {
		return this.writer.flush();
	}

	/** Bytes in segment files, and how many of them belong to bases still kept (tests and diagnostics). */
	usage(): { segments: number; bytes: number; liveBytes: number } {
		let bytes = 0;
		let liveBytes = 0;
		for (const segment of this.segments.values()) {
			bytes += segment.size;
			liveBytes += segment.live;
		}
		return { segments: [...this.segments.values()].filter((segment) => segment.size > 0).length, bytes, liveBytes };
	}

	/** Starts a new segment for appends (after the sealed one, by number); the sealed one may then be reclaimed. */
	private roll(): Segment {
		const sealed = this.active;
		void this.flush().catch(() => undefined);
		this.reclaimLater(sealed);
		this.active++;
		const segment = { size: 0, live: 0 };
		this.segments.set(this.active, segment);
		return segment;
	}

	private reclaimLater(number: number): void {
		this.reclaiming = this.reclaiming.then(() => this.reclaim(number)).catch(() => undefined);
	}

	/** Deletes a sealed segment nothing lives in, or writes the few live records of a mostly dead one again. */
	private async reclaim(number: number): Promise<void> {
		const segment = this.segments.get(number);
		if (number === this.active || segment === undefined) return;
		if (segment.live > 0 && segment.live >= segment.size * COMPACT_BELOW) return;
		await this.writer.flush();
		if (segment.live > 0) await this.moveLiveRecords(number);
		this.segments.delete(number);
		await fs.rm(join(this.folder, segmentName(number)), { force: true });
	}

	private async moveLiveRecords(number: number): Promise<void> {
		const bytes = await fs.readFile(join(this.folder, segmentName(number)));
		const moves: [string, string][] = [];
		for (const [key, location] of this.locations) {
			if (location.segment !== number) continue;
			moves.push([key, bytes.toString("utf8", location.offset, location.offset + location.length)]);
		}
		for (const [key, content] of moves) {
			// Removed while the segment was read, or already moved: nothing to carry over.
			if (this.locations.get(key)?.segment !== number) continue;
			this.locations.delete(key);
			void this.write(key, content).catch(() => undefined);
		}
		await this.flush();
	}

	/** Reads the records of one segment into the index; a later record of the same key wins. */
	private index(number: number, bytes: Buffer): void {
		const segment: Segment = { size: bytes.length, live: 0 };
		this.segments.set(number, segment);
		for (const { key, ...place } of scanSegment(bytes)) {
			const earlier = this.locations.get(key);
			if (earlier !== undefined) this.forget(key, earlier);
			this.locations.set(key, { segment: number, ...place });
			segment.live += place.recordBytes;
		}
	}

	/** Drops a base's location; its bytes become dead space in their segment. */
	private forget(key: string, location: Location): void {
		this.locations.delete(key);
		const segment = this.segments.get(location.segment);
		if (segment !== undefined) segment.live -= location.recordBytes;
	}
}
