/**
 * Writes base-pack records (see base-pack.ts) in batches: records wait up to 50 ms (or until 1 MB waits) and each
 * run of them bound for one segment goes out in one write on the thread pool. Batches are written one after
 * another, at the offsets their records were given, never with O_APPEND.
 */
import { constants, promises as fs } from "fs";
import type { FileHandle } from "fs/promises";
import { join } from "path";
import type { Timers } from "../core/timers";
import { segmentName } from "./base-pack-format";

const FLUSH_DELAY_MS = 50;
const FLUSH_BYTES = 1024 * 1024;

export interface QueuedRecord {
	segment: number;
	/** Where the record starts in its segment. */
	start: number;
	bytes: Buffer;
}

interface Batch {
	records: QueuedRecord[];
	bytes: number;
	written: Promise<void>;
	settle: (error?: unknown) => void;
}

export class BatchedSegmentWriter {
	private batch: Batch | null = null;
	private timer: unknown = null;
	private writing: Promise<void> = Promise.resolve();

	constructor(
		private readonly folder: string,
		private readonly timers: Timers,
		/** The one segment file held open: the one batches were last written to (usually the one appended to). */
		private handle: { number: number; file: FileHandle } | null,
	) {}

	/** Resolves once the record's batch is written; rejects if that batch failed. */
	append(record: QueuedRecord): Promise<void> {
		let batch = this.batch;
		if (batch === null) {
			let settle!: Batch["settle"];
			const written = new Promise<void>(
				(resolve, reject) =>
					(settle = (error) =>
						error === undefined
							? resolve()
							: reject(error instanceof Error ? error : new Error("The merge bases could not be written."))),
			);
			batch = this.batch = { records: [], bytes: 0, written, settle };
			this.timer = this.timers.schedule(() => void this.flush(), FLUSH_DELAY_MS);
		}
		batch.records.push(record);
		batch.bytes += record.bytes.length;
		const written = batch.written;
		if (batch.bytes >= FLUSH_BYTES) void this.flush();
		return written;
	}

	/** Writes the waiting records now; resolves once every batch so far is written (never rejects). */
	flush(): Promise<void> {
		const batch = this.batch;
		if (batch !== null) {
			this.batch = null;
			if (this.timer !== null) this.timers.cancel(this.timer);
			this.timer = null;
			this.writing = this.writing
				.then(() => this.writeBatch(batch))
				.then(
					() => batch.settle(),
					(error: unknown) => batch.settle(error),
				);
		}
		return this.writing;
	}

	async close(): Promise<void> {
		await this.flush();
		await this.handle?.file.close();
		this.handle = null;
	}

	private async writeBatch(batch: Batch): Promise<void> {
		// Records of one segment lie end to end: each run of them is one write.
		for (let i = 0; i < batch.records.length;) {
			const first = batch.records[i]!;
			let end = i + 1;
			while (end < batch.records.length && batch.records[end]!.segment === first.segment) end++;
			await this.writeAt(
				first.segment,
				Buffer.concat(batch.records.slice(i, end).map((record) => record.bytes)),
				first.start,
			);
			i = end;
		}
	}

	private async writeAt(number: number, bytes: Buffer, start: number): Promise<void> {
		// Batches are written one at a time, so the held file is swapped safely.
		if (this.handle?.number !== number) {
			await this.handle?.file.close().catch(() => undefined);
			this.handle = null;
			this.handle = {
				number,
				file: await fs.open(join(this.folder, segmentName(number)), constants.O_WRONLY | constants.O_CREAT, 0o600),
			};
		}
		const file = this.handle.file;
		for (let offset = 0; offset < bytes.length;)
			offset += (await file.write(bytes, offset, bytes.length - offset, start + offset)).bytesWritten;
	}
}
