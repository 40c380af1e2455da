/**
 * The headless host's merge bases, packed: records appended to a few segment files in `bases/`, not one file per
 * base. A file per accepted write put a new inode and folder entry into the journal beside every note's own fsyncs,
 * on the main thread (up to ~90 µs a write in a young folder), and every eviction cost a removal and a folder fsync.
 * Here records are gathered for a moment and written with one call on the thread pool.
 *
 * Bases are a cache: BaseStore checks every base it reads against its revision, so a torn or missing record costs a
 * merge, never a note (a write that cannot be merged is refused with its body kept). That is why nothing here is
 * fsynced, and why a base still waiting to be written when the process dies is simply not there afterwards.
 *
 * Record: `rgbase <key> <byte length>\n`, the content's UTF-8 bytes, `\n`.
 */
import { constants, promises as fs } from "fs";
import type { FileHandle } from "fs/promises";
import { join } from "path";
import type { BlobStorage } from "../core/base-store";
import type { Timers } from "../core/timers";

const SEGMENT_NAME = /^pack-(\d{8})\.rgpack$/;
const KEY = /^[A-Za-z0-9_-]{1,128}$/;
const HEADER = /^rgbase ([A-Za-z0-9_-]{1,128}) (\d{1,12})$/;
/** Records wait at most this long to be written, or until this many bytes are waiting. */
const FLUSH_DELAY_MS = 50;
const FLUSH_BYTES = 1024 * 1024;
/** A sealed segment whose live records fill less than this share of it is compacted (they are written again). */
const COMPACT_BELOW = 0.5;

interface Location {
	segment: number;
	/** Where the content starts, and its length in bytes. */
	offset: number;
	length: number;
	/** Header, content and newline: what the segment loses when the base goes. */
	recordBytes: number;
	/** The content while its record waits to be written. */
	pending?: string;
}

interface Segment {
	size: number;
	live: number;
}

interface Batch {
	records: { segment: number; start: number; bytes: Buffer; key: string }[];
	bytes: number;
	written: Promise<void>;
	settle: (error?: unknown) => void;
}

export class PackedBlobStorage implements BlobStorage {
	private readonly locations = new Map<string, Location>();
	private readonly segments = new Map<number, Segment>();
	/** Bases an older version kept one file each: still read, and removed when evicted. */
	private readonly legacy = new Set<string>();
	/** Segments are deleted and compacted one at a time, in the background: an eviction never waits for it. */
	private reclaiming: Promise<void> = Promise.resolve();
	private active: number;
	/** The one segment file held open: the one batches were last written to (usually the active one). */
	private handle: { number: number; file: FileHandle } | null = null;
	private batch: Batch | null = null;
	private timer: unknown = null;
	/** Batches are written one after another, so offsets are handed out in the order they land. */
	private writing: Promise<void> = Promise.resolve();

	private constructor(
		private readonly folder: string,
		private readonly segmentBytes: number,
		private readonly timers: Timers,
		active: { number: number; file: FileHandle },
	) {
		this.active = active.number;
		this.handle = active;
		this.segments.set(this.active, { size: 0, live: 0 });
	}

	/** Opens the pack in `folder`, reading where every record is (a torn last record is ignored). */
	static async open(folder: string, timers: Timers, options: { segmentBytes?: number } = {}): Promise<PackedBlobStorage> {
		await fs.mkdir(folder, { recursive: true, mode: 0o700 });
		const names = await fs.readdir(folder);
		const numbers = names.map((name) => SEGMENT_NAME.exec(name)?.[1]).filter((n): n is string => n !== undefined).map(Number).sort((a, b) => a - b);
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
		for (const name of names) if (!name.startsWith(".") && !SEGMENT_NAME.test(name) && KEY.test(name)) pack.legacy.add(name);
		for (const number of numbers) {
			// A segment that cannot be read holds no base we can serve; it is left alone.
			const bytes = await fs.readFile(join(folder, segmentName(number))).catch(() => null);
			if (bytes !== null) pack.index(number, bytes);
		}
		return pack;
	}

	async write(key: string, content: string): Promise<void> {
		if (!KEY.test(key)) throw new Error(`Not a base key: ${key}`);
		// Content-addressed: a key already packed holds this very content.
		if (this.locations.has(key)) return;
		const body = Buffer.from(content, "utf8");
		const header = Buffer.from(`rgbase ${key} ${body.length}\n`, "latin1");
		const bytes = Buffer.concat([header, body, NEWLINE]);
		let segment = this.segments.get(this.active)!;
		if (segment.size > 0 && segment.size + bytes.length > this.segmentBytes) segment = this.roll();
		const start = segment.size;
		segment.size += bytes.length;
		segment.live += bytes.length;
		this.locations.set(key, { segment: this.active, offset: start + header.length, length: body.length, recordBytes: bytes.length, pending: content });
		return this.enqueue({ segment: this.active, start, bytes, key });
	}

	async read(key: string): Promise<string | null> {
		const location = this.locations.get(key);
		if (location === undefined) return this.legacy.has(key) ? fs.readFile(join(this.folder, key), "utf8").catch(() => null) : null;
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
		this.locations.delete(key);
		const segment = this.segments.get(location.segment);
		if (segment === undefined) return;
		segment.live -= location.recordBytes;
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
			this.locations.delete(key);
			const segment = this.segments.get(location.segment);
			if (segment !== undefined) segment.live -= location.recordBytes;
			touched.add(location.segment);
		}
		for (const number of this.segments.keys()) if (number !== this.active && this.segments.get(number)!.live <= 0) touched.add(number);
		for (const key of this.legacy) {
			if (wanted(key)) continue;
			this.legacy.delete(key);
			this.reclaiming = this.reclaiming.then(() => fs.rm(join(this.folder, key), { force: true })).catch(() => undefined);
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
		await this.handle?.file.close();
		this.handle = null;
	}

	/** Writes the waiting records now; resolves once every batch so far is written. */
	flush(): Promise<void> {
		const batch = this.batch;
		if (batch !== null) {
			this.batch = null;
			if (this.timer !== null) this.timers.cancel(this.timer);
			this.timer = null;
			this.writing = this.writing.then(() => this.writeBatch(batch)).then(
				() => batch.settle(),
				(error: unknown) => batch.settle(error),
			);
		}
		return this.writing;
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

	private enqueue(record: Batch["records"][number]): Promise<void> {
		let batch = this.batch;
		if (batch === null) {
			let settle!: Batch["settle"];
			const written = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error instanceof Error ? error : new Error("The merge bases could not be written.")))));
			batch = this.batch = { records: [], bytes: 0, written, settle };
			this.timer = this.timers.schedule(() => void this.flush(), FLUSH_DELAY_MS);
		}
		batch.records.push(record);
		batch.bytes += record.bytes.length;
		const written = batch.written;
		if (batch.bytes >= FLUSH_BYTES) void this.flush();
		return written;
	}

	private async writeBatch(batch: Batch): Promise<void> {
		try {
			// Records of one segment lie end to end: each run of them is one write.
			for (let i = 0; i < batch.records.length; ) {
				const first = batch.records[i]!;
				let end = i + 1;
				while (end < batch.records.length && batch.records[end]!.segment === first.segment) end++;
				const bytes = Buffer.concat(batch.records.slice(i, end).map((record) => record.bytes));
				await this.writeAt(first.segment, bytes, first.start);
				i = end;
			}
		} catch (error) {
			// Nothing of this batch is promised any more: its bases are forgotten (BaseStore drops them too).
			for (const record of batch.records) {
				const location = this.locations.get(record.key);
				if (location?.pending === undefined) continue;
				this.locations.delete(record.key);
				const segment = this.segments.get(location.segment);
				if (segment !== undefined) segment.live -= location.recordBytes;
			}
			throw error;
		}
		for (const record of batch.records) delete this.locations.get(record.key)?.pending;
	}

	private async writeAt(number: number, bytes: Buffer, start: number): Promise<void> {
		// Batches are written one at a time, so the held file is swapped safely. No O_APPEND: each record goes exactly
		// where its location says.
		if (this.handle?.number !== number) {
			await this.handle?.file.close().catch(() => undefined);
			this.handle = null;
			this.handle = { number, file: await fs.open(join(this.folder, segmentName(number)), constants.O_WRONLY | constants.O_CREAT, 0o600) };
		}
		const file = this.handle.file;
		for (let offset = 0; offset < bytes.length; ) offset += (await file.write(bytes, offset, bytes.length - offset, start + offset)).bytesWritten;
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
		await this.writing;
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
		for (let start = 0; start < bytes.length; ) {
			const newline = bytes.indexOf(10, start);
			const header = newline === -1 || newline - start > 200 ? null : HEADER.exec(bytes.toString("latin1", start, newline));
			if (header === null) break;
			const length = Number(header[2]);
			const end = newline + 1 + length;
			// A record cut short by a crash ends the segment (everything after it is dead space).
			if (end >= bytes.length || bytes[end] !== 10) break;
			const key = header[1]!;
			const earlier = this.locations.get(key);
			if (earlier !== undefined) this.segments.get(earlier.segment)!.live -= earlier.recordBytes;
			this.locations.set(key, { segment: number, offset: newline + 1, length, recordBytes: end + 1 - start });
			segment.live += end + 1 - start;
			start = end + 1;
		}
	}
}

const NEWLINE = Buffer.from("\n");

function segmentName(number: number): string {
	return `pack-${String(number).padStart(8, "0")}.rgpack`;
}
