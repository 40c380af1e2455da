/**
 * A note file as the headless gateway sees it for a write decision: its text, decoded strictly, and its identity
 * (device, inode, size, and change times in nanoseconds), so the last "is it still what I checked?" just before
 * the rename is one stat, whatever the note's size.
 */
// The fs object itself (not its named exports), so a test can act exactly at the final check.
import fs, { type BigIntStats, type Stats } from "fs";
import type { NoteStat } from "./gateway";
import { NoteEncodingError, VaultPathError } from "./errors";
import { readFileWithIdentity, readFileWithStat } from "./read-file";

export interface SeenFile {
	/** The note's text, or null when there is no file. */
	content: string | null;
	bytes: Buffer | null;
	stats: BigIntStats | null;
	/** When it was read, in nanoseconds of wall-clock time (compared with the file's change time). */
	readAtNs: bigint;
	/**
	 * The read's descriptor, held open until the write step is over (`releaseSeen`): a rename over a file someone
	 * still holds open does not free its blocks in the rename (about a third of its time, on the main thread), the
	 * close does, on the thread pool. Not on Windows, where an open file may refuse to be replaced.
	 */
	fd?: number | null;
}

const HOLD_WHILE_WRITING = process.platform !== "win32";

/** Closes the descriptor a decision read held (in the background: nothing waits for it). */
export function releaseSeen(seen: SeenFile): void {
	if (seen.fd === undefined || seen.fd === null) return;
	fs.close(seen.fd, () => undefined);
	seen.fd = null;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A note's text, decoded strictly; a byte-order mark is kept, so the text re-encodes to exactly these bytes. */
export function decodeNote(path: string, bytes: Uint8Array): string {
	try {
		return STRICT_UTF8.decode(bytes);
	} catch {
		throw new NoteEncodingError(path);
	}
}

/**
 * Reads the note at `absolute`, refusing anything that is not a regular file of UTF-8 text. `absolute` is a real
 * path, or (where the platform can name an opened file, read-file.ts) a joined one whose opened file `check` is
 * shown, as reads do; `realPath` then says where the note really is.
 */
export async function readForDecision(
	path: string,
	absolute: string,
	check?: (realPath: string | null) => void,
): Promise<SeenFile & { realPath: string | null }> {
	const readAtNs = BigInt(Date.now()) * 1_000_000n;
	let read;
	let realPath: string | null = null;
	try {
		read =
			check === undefined
				? await readFileWithIdentity(absolute, HOLD_WHILE_WRITING)
				: await readFileWithStat(
						absolute,
						(real) => {
							check(real);
							realPath = real;
						},
						HOLD_WHILE_WRITING,
					);
	} catch (error) {
		throwUnlessMissing(path, error);
		return { content: null, bytes: null, stats: null, readAtNs, realPath: null };
	}
	if (read === null) {
		if (fs.statSync(absolute, { throwIfNoEntry: false })?.isDirectory())
			throw new VaultPathError(path, "folder-in-the-way");
		throw new VaultPathError(path, "not-a-file");
	}
	let content: string;
	try {
		content = decodeNote(path, read.bytes);
	} catch (error) {
		releaseSeen({ content: null, bytes: read.bytes, stats: read.stats, readAtNs, fd: read.fd ?? null });
		throw error;
	}
	return { content, bytes: read.bytes, stats: read.stats, readAtNs, realPath, fd: read.fd ?? null };
}

/**
 * A file changed within this long before it was read may have changed again within the same tick of the file
 * system's clock without its stat showing it (git's "racily clean" files): those are compared byte for byte too.
 * File systems whose times are whole seconds (FAT keeps 2 s, HFS+ and some network mounts 1 s) tick far more
 * coarsely, so there the window is wider than their tick.
 */
const RACY_NS = 50_000_000n;
const RACY_COARSE_NS = 3_000_000_000n;
const SECOND_NS = 1_000_000_000n;

/** A file's identity as one key: any change to the file (content, or a replacement) changes it. */
export function identityKeyOf(stats: BigIntStats): string {
	// Joined, not a template: a template of nine parts is kept as a tree of string pieces several times the size of the
	// flat key that join makes, and history keeps one key per note.
	return [stats.dev, stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs].join(":");
}

/**
 * Whether a file with these stats had stopped changing long enough before `readAtNs` for its stat to tell any
 * later change.
 */
export function settledBefore(stats: BigIntStats, readAtNs: bigint): boolean {
	const coarse = stats.mtimeNs % SECOND_NS === 0n && stats.ctimeNs % SECOND_NS === 0n;
	return readAtNs - stats.ctimeNs >= (coarse ? RACY_COARSE_NS : RACY_NS);
}

/**
 * Whether the file at `absolute` is still exactly what `seen` read: synchronous, for the moment just before the
 * rename. A file that appeared, vanished, was replaced or was edited in place answers false.
 */
export function stillAsSeen(absolute: string, seen: SeenFile): boolean {
	let now: BigIntStats | undefined;
	try {
		now = fs.statSync(absolute, { bigint: true, throwIfNoEntry: false });
	} catch {
		return false;
	}
	if (seen.stats === null || now === undefined) return seen.stats === null && now === undefined;
	const before = seen.stats;
	if (
		now.dev !== before.dev ||
		now.ino !== before.ino ||
		now.size !== before.size ||
		now.mtimeNs !== before.mtimeNs ||
		now.ctimeNs !== before.ctimeNs
	)
		return false;
	if (settledBefore(before, seen.readAtNs)) return true;
	try {
		return currentBytes(absolute, seen, Number(now.size)).equals(seen.bytes!);
	} catch {
		return false;
	}
}

/** Whether `entry` is (still) a symbolic link leading to `real` (a real path), checked now. */
export function linksTo(entry: string, real: string): boolean {
	try {
		return fs.lstatSync(entry).isSymbolicLink() && fs.realpathSync(entry) === real;
	} catch {
		return false;
	}
}

/**
 * The file's bytes now: through the held descriptor when there is one (the stat showed it is the same file), else
 * by name.
 */
function currentBytes(absolute: string, seen: SeenFile, size: number): Buffer {
	if (seen.fd === undefined || seen.fd === null) return fs.readFileSync(absolute);
	// One byte more than the stat said: a read that comes back short has reached the end of the file (so a file of the
	// stat's size takes one read, not a second one that finds nothing), and a longer file shows as longer.
	const buffer = Buffer.allocUnsafe(size + 1);
	let length = 0;
	for (let wanted = buffer.length; length < buffer.length;) {
		const read = fs.readSync(seen.fd, buffer, length, wanted, length);
		length += read;
		if (read < wanted) break;
		wanted = buffer.length - length;
	}
	return buffer.subarray(0, length);
}

/** A missing file is simply no note; a path that cannot hold one is refused with its reason. */
export function throwUnlessMissing(path: string, error: unknown): void {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT") return;
	if (code === "EISDIR") throw new VaultPathError(path, "folder-in-the-way");
	if (code === "ENOTDIR") throw new VaultPathError(path, "file-in-the-way");
	if (code === "ELOOP") throw new VaultPathError(path, "symlink-loop");
	throw error;
}

/** A file's stat as the gateway reports it (milliseconds), from Node's stats in either form. */
export function toStat(stats: Stats | BigIntStats): NoteStat {
	if (typeof stats.size === "bigint") {
		// Rounded from nanoseconds, as Node rounds its fractional milliseconds: the same file gives the same stat either way.
		const ms = (ns: bigint) => Math.round(Number(ns) / 1e6);
		const big = stats as BigIntStats;
		return { ctime: ms(big.birthtimeNs || big.ctimeNs), mtime: ms(big.mtimeNs), size: Number(big.size) };
	}
	const small = stats as Stats;
	return { ctime: Math.round(small.birthtimeMs || small.ctimeMs), mtime: Math.round(small.mtimeMs), size: small.size };
}
