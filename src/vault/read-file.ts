/**
 * Reads a file and its stat through one descriptor: one open, one fstat, reads until the end, and a close that the
 * caller does not wait for. Reads are the API's hot path. A note of up to 256 KB is read with direct calls (a few
 * microseconds each, against a round trip through the thread pool each); a larger one is read on the pool.
 */
import {
	close,
	closeSync,
	constants,
	fstatSync,
	openSync,
	read,
	readlinkSync,
	readSync,
	type BigIntStats,
	type Stats,
} from "fs";

export interface FileRead<S = Stats> {
	bytes: Buffer;
	stats: S;
	/** The descriptor, still open, when the caller asked to hold it (it closes it); absent otherwise. */
	fd?: number;
}

/** Where Linux shows the real path of an open descriptor. */
const PROC_FD = "/proc/self/fd/";

/** Whether this platform can name an open descriptor's real path (so no check before opening is needed). */
export const CAN_CHECK_OPENED_FILE = process.platform === "linux";

/**
 * Resolves null when the path is not a regular file; rejects with the filesystem's error otherwise. `check` is
 * shown the real path of the file actually opened (null where the platform cannot tell) and may throw to refuse it:
 * checking the opened file, not the name beforehand, leaves no gap for a symlink swapped in between.
 */
export function readFileWithStat(
	absolute: string,
	check: (realPath: string | null) => void = () => undefined,
	hold = false,
): Promise<FileRead<BigIntStats> | null> {
	return readThrough(absolute, true, check, hold) as Promise<FileRead<BigIntStats> | null>;
}

/** The same read without the check. Both give nanosecond stats: the file's identity for a later "is it still what I read?". */
export function readFileWithIdentity(absolute: string, hold = false): Promise<FileRead<BigIntStats> | null> {
	return readThrough(absolute, true, () => undefined, hold) as Promise<FileRead<BigIntStats> | null>;
}

/**
 * A held read is a write's decision read: one per write, never one of a run of reads, so a small note is answered at
 * once rather than on the next turn of the event loop.
 */
function readThrough(
	absolute: string,
	bigint: boolean,
	check: (realPath: string | null) => void,
	hold = false,
): Promise<FileRead<Stats | BigIntStats> | null> {
	return new Promise((resolve, reject) => {
		// Non-blocking, so a FIFO or device named like a note cannot hang the server (regular files ignore the flag).
		let fd: number;
		try {
			fd = openSync(absolute, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
		} catch (openError) {
			return reject(openError instanceof Error ? openError : new Error(String(openError)));
		}
		const finish = (error: Error | null, result: FileRead<Stats | BigIntStats> | null) => {
			if (error || result === null || !hold) close(fd, () => undefined);
			if (error) reject(error);
			else resolve(result && hold ? { bytes: result.bytes, stats: result.stats, fd } : result);
		};
		// A small note takes a few microseconds of system calls: those run here, at once, which costs the main thread
		// far less than a round trip through the thread pool each. A large note is read on the thread pool, so it
		// never holds up other requests.
		let real: string | null = null;
		let stats: Stats | BigIntStats;
		try {
			if (CAN_CHECK_OPENED_FILE) real = realPathOf(fd);
			check(real);
			stats = fstatSync(fd, { bigint });
		} catch (error) {
			return finish(error as Error, null);
		}
		if (!stats.isFile()) return finish(null, null);
		const size = Number(stats.size);
		if (size <= SMALL_FILE_BYTES) {
			let bytes: Buffer;
			try {
				bytes = readAllNow(fd, size);
			} catch (error) {
				return finish(error as Error, null);
			}
			// Answered on the next turn of the event loop: a caller reading notes one after another (a start-up
			// reconcile) would otherwise never let anything else run until it is done.
			if (hold) return finish(null, { bytes, stats });
			return void setImmediate(() => finish(null, { bytes, stats }));
		}
		readAll(fd, size, (readError, bytes) => {
			if (readError || !bytes) return finish(readError ?? new Error("read failed"), null);
			finish(null, { bytes, stats });
		});
	});
}

/**
 * The same read as readFileWithStat, done at once with synchronous calls (a start-up reading thousands of notes in a
 * row; a round trip through the thread pool to close each cost more than reading it). Null when the path is not a
 * regular file; undefined when the file is larger than a small note (read it with readFileWithStat then). `check`
 * null: the caller has shown where the file is already (a note opened through its checked folder, scan-folder.ts,
 * with `flags` O_NOFOLLOW), so the opened file's own path is not looked up.
 */
export function readSmallFileNow(
	absolute: string,
	check: ((realPath: string | null) => void) | null,
	flags = 0,
	scratch?: ScratchBuffer,
): FileRead<BigIntStats> | null | undefined {
	const fd = openSync(absolute, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | flags);
	try {
		check?.(CAN_CHECK_OPENED_FILE ? realPathOf(fd) : null);
		const stats = fstatSync(fd, { bigint: true });
		if (!stats.isFile()) return null;
		if (stats.size > BigInt(SMALL_FILE_BYTES)) return undefined;
		return { bytes: readAllNow(fd, Number(stats.size), scratch), stats };
	} finally {
		closeSync(fd);
	}
}

/** The real path of an open descriptor, or null where /proc cannot tell (the caller then resolves the name). */
function realPathOf(fd: number): string | null {
	try {
		return readlinkSync(PROC_FD + fd);
	} catch {
		return null;
	}
}

/** Files up to this size are read with synchronous calls once open (see readThrough). */
const SMALL_FILE_BYTES = 256 * 1024;

/**
 * One buffer that a run of reads (a start-up's) reads every note into in turn, instead of a buffer of its own per
 * note: tens of thousands of notes each a little over the size Node pools small buffers to. What a read gives is a
 * view of it, valid only until the next read into it.
 */
export class ScratchBuffer {
	private buffer = Buffer.allocUnsafe(0);

	/** At least `size` bytes, the same buffer as last time when it is large enough. */
	take(size: number): Buffer {
		if (this.buffer.length < size) this.buffer = Buffer.allocUnsafe(Math.max(size, this.buffer.length * 2, 16 * 1024));
		return this.buffer;
	}
}

function readAllNow(fd: number, sizeHint: number, scratch?: ScratchBuffer): Buffer {
	let buffer = scratch?.take(sizeHint + 1) ?? Buffer.allocUnsafe(sizeHint + 1);
	let length = 0;
	for (;;) {
		if (length === buffer.length) {
			const grown = Buffer.allocUnsafe(buffer.length * 2);
			buffer.copy(grown, 0, 0, length);
			buffer = grown;
		}
		const read = readSync(fd, buffer, length, buffer.length - length, length);
		length += read;
		if (read === 0 || (sizeHint > 0 && length === sizeHint)) return buffer.subarray(0, length);
	}
}

/** Reads from the start until end of file; the file may have grown or shrunk since its fstat. */
function readAll(fd: number, sizeHint: number, done: (error: Error | null, bytes?: Buffer) => void): void {
	let buffer = Buffer.allocUnsafe(Math.max(sizeHint, 1) + 1);
	let length = 0;
	const step = () => {
		if (length === buffer.length) {
			const grown = Buffer.allocUnsafe(buffer.length * 2);
			buffer.copy(grown, 0, 0, length);
			buffer = grown;
		}
		read(fd, buffer, length, buffer.length - length, length, (error, bytesRead) => {
			if (error) return done(error);
			length += bytesRead;
			// Trust the size fstat gave (as fs.readFile does): no extra read just to see end of file.
			if (bytesRead === 0 || (sizeHint > 0 && length === sizeHint)) return done(null, buffer.subarray(0, length));
			step();
		});
	};
	step();
}
