/** Crash-safe file writes for the headless host: temp file in the same folder, fsync, rename, fsync the folder. */
import { randomBytes } from "crypto";
// The fs object itself (not its named exports), so a test can act exactly at a step of the write.
import fs, { renameSync, type Stats } from "fs";
import { basename, dirname, join } from "path";
import { MAX_NAME_BYTES, truncateUtf8 } from "../core/utf8";

/** Temp files are hidden (leading dot) and carry this marker, so start-up can find leftovers. */
export const TEMP_MARKER = ".rg-tmp-";

/** Random per process, so two processes never pick the same temp name; a counter within it (no random draw per write). */
const PROCESS_TAG = randomBytes(4).toString("hex");
let tempCounter = 0;

/**
 * A hidden name for a temp file that will become `target`, in `folder` (by default beside `target`), which fits the
 * file system's name limit however long the target's name is.
 */
export function tempPathFor(target: string, folder = dirname(target)): string {
	tempCounter = (tempCounter + 1) % 0x1_0000_0000;
	const tail = `${TEMP_MARKER}${PROCESS_TAG}${tempCounter.toString(16).padStart(8, "0")}`;
	return join(folder, "." + truncateUtf8(basename(target), MAX_NAME_BYTES - 1 - tail.length) + tail);
}

/**
 * Where the temp file for `target` is written: `tempFolder` when given (a folder no watcher follows, on the same file
 * system, so writing the temp makes no events: only the rename into place does), else beside the target. A target
 * folder that refused a rename from there (another file system mounted inside the vault) gets its temps beside it.
 */
function tempFolderFor(target: string, tempFolder: string | undefined): string {
	const folder = dirname(target);
	return tempFolder === undefined || crossDeviceFolders.has(folder) ? folder : tempFolder;
}

/** Target folders on another file system than the temp folder (bounded: a vault has few mount points). */
const crossDeviceFolders = new Set<string>();

/** Whether `error` says a rename or link could not cross file systems; the folder is remembered for next time. */
function crossedDevice(error: unknown, target: string): boolean {
	if ((error as NodeJS.ErrnoException).code !== "EXDEV") return false;
	if (crossDeviceFolders.size >= 1024) crossDeviceFolders.clear();
	crossDeviceFolders.add(dirname(target));
	return true;
}

export interface WriteOptions {
	/** false skips the fsyncs, for caches that verify their content on read. */
	durable?: boolean;
	/** Permissions of a new file (0o600 for files that hold keys). */
	mode?: number;
	/**
	 * Checked once the new content is on disk, just before the rename, in the same synchronous step: false means
	 * another program changed the target meanwhile, so nothing is replaced.
	 */
	stillCurrent?: () => boolean;
	/**
	 * Called in the same synchronous step as the rename, just before it (after `stillCurrent`, if given), so a watcher
	 * can tell the rename's own event apart. Returns the function that withdraws that, called if the rename fails.
	 */
	announce?: () => () => void;
	/** Where the temp file goes (see tempFolderFor); beside the target when absent. */
	tempFolder?: string;
}

/** Writes a new file and returns its stat, taken from the written file itself before it is moved anywhere. */
function writeNew(path: string, content: string | Uint8Array, durable: boolean, mode: number): Promise<Stats> {
	// Opening and making durable go through the thread pool (they wait on the disk); the fstat and the close of a file
	// just written are a few microseconds each and run at once. A small durable file is opened with O_DSYNC and
	// written in one call on the pool, which returns only once the bytes and what it takes to read them back (size,
	// blocks) are on disk, as write + fdatasync would: the same disk work as a write then an fsync, without the write
	// on the main thread (on a disk file system, writing a new file took the main thread about 3× as long as in RAM).
	// Elsewhere (no O_DSYNC, an empty file that has no write to carry the sync, a large file written in pieces on the
	// pool, or a file that need not be durable) it is written, then fsynced if it must be durable.
	const bytes = typeof content === "string" ? Buffer.from(content) : content;
	const synced = durable && SYNCED_WRITE !== undefined && bytes.length > 0 && bytes.length <= SMALL_WRITE_BYTES;
	return new Promise((resolve, reject) => {
		fs.open(path, synced ? SYNCED_CREATE : "wx", mode, (openError, fd) => {
			if (openError) return reject(openError);
			const finish = (error: Error | null) => {
				let stats: Stats | undefined;
				try {
					if (!error) stats = fs.fstatSync(fd);
				} catch (statError) {
					error = statError as Error;
				}
				// Closing a file just written (nothing freed) is as quick as the fstat.
				try {
					fs.closeSync(fd);
				} catch (closeError) {
					error ??= closeError as Error;
				}
				if (error) reject(error);
				else resolve(stats!);
			};
			const written = (writeError: Error | null) => {
				if (writeError || !durable) return finish(writeError);
				fs.fsync(fd, finish);
			};
			// Each write returns once durable (a rare short write is followed by another, durable in turn).
			if (synced) return writeAll(fd, bytes, 0, finish);
			if (bytes.length > SMALL_WRITE_BYTES) return writeAll(fd, bytes, 0, written);
			try {
				for (let offset = 0; offset < bytes.length;)
					offset += fs.writeSync(fd, bytes, offset, bytes.length - offset, offset);
			} catch (error) {
				return written(error as Error);
			}
			written(null);
		});
	});
}

/** Writes that return once durable (Linux, macOS); undefined where the platform has no such flag (Windows). */
const SYNCED_WRITE = fs.constants.O_DSYNC as number | undefined;
/** What "wx" opens with, and O_DSYNC. */
const SYNCED_CREATE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (SYNCED_WRITE ?? 0);

/** Files up to this size are written with synchronous calls once open (see writeNew). */
const SMALL_WRITE_BYTES = 256 * 1024;

function writeAll(fd: number, bytes: Uint8Array, offset: number, done: (error: Error | null) => void): void {
	if (offset >= bytes.length) return done(null);
	fs.write(fd, bytes, offset, bytes.length - offset, offset, (error, written) =>
		error ? done(error) : writeAll(fd, bytes, offset + written, done),
	);
}

/**
 * What fsync of a folder answers where the platform cannot fsync a directory at all (not a failure of this disk):
 * EINVAL (Linux: the file "does not support synchronization"), EISDIR and EBADF (platforms that refuse a directory
 * descriptor, or one opened read-only, for fsync), EPERM (some network and FUSE file systems, and Windows, which
 * denies it), ENOTSUP and EOPNOTSUPP (file systems without the call). There the rename itself is as durable as the
 * platform makes renames, and the write is acknowledged. Anything else (EIO, ENOSPC, EDQUOT, and EROFS: the file
 * system just turned read-only under us, after it took the rename) means the disk failed to make the rename durable.
 */
const CANNOT_FSYNC_FOLDERS = new Set(["EINVAL", "EISDIR", "EBADF", "EPERM", "ENOTSUP", "EOPNOTSUPP"]);

/** Why opening a folder to fsync it can fail while the folder is there to fsync: answered as a failed fsync. */
const OPEN_FAILED_NOT_TRIED = new Set(["EMFILE", "ENFILE", "ENOMEM", "EIO"]);

/**
 * Makes `folder`'s entries (a rename, a link, a removal in it) durable. Rejects when the disk reports a failure
 * doing so: what was renamed into it may not survive a crash, so it must not be acknowledged as durable. Resolves
 * where the platform cannot open or fsync a folder at all (see CANNOT_FSYNC_FOLDERS).
 */
export function fsyncFolder(folder: string): Promise<void> {
	// Opening and closing a folder touch no data (microseconds, done at once); the fsync waits on the disk, on the pool.
	let fd: number;
	try {
		fd = fs.openSync(folder, "r");
	} catch (error) {
		// Out of descriptors or memory, or the disk failing: the fsync was never tried, so nothing is known durable.
		const failure = error as NodeJS.ErrnoException;
		if (OPEN_FAILED_NOT_TRIED.has(failure.code ?? "")) return Promise.reject(failure);
		// Not a folder this platform opens (Windows), or gone: nothing to fsync it with.
		return Promise.resolve();
	}
	return new Promise((resolve, reject) =>
		fs.fsync(fd, (error) => {
			try {
				fs.closeSync(fd);
			} catch {
				// Closing a folder's descriptor releases nothing the disk holds: only the fsync's answer matters.
			}
			if (error && !CANNOT_FSYNC_FOLDERS.has(error.code ?? "")) reject(error);
			else resolve();
		}),
	);
}

/**
 * The folder fsyncs of a change already in place (each folder once), awaited later by the caller (after other
 * steps): marked handled at once so a failure meanwhile is not reported as an unhandled rejection. The caller's
 * await still sees the failure.
 */
export function fsyncFoldersLater(...folders: string[]): Promise<void> {
	// One folder (every write's case) needs no set, array or Promise.all around its one fsync.
	const durable =
		folders.length === 1
			? fsyncFolder(folders[0]!)
			: Promise.all([...new Set(folders)].map(fsyncFolder)).then(() => undefined);
	durable.catch(() => undefined);
	return durable;
}

/**
 * Replaces (or creates) `target` so that a crash leaves either the old or the new content, never a mix. Resolves
 * with the written file's stat, or null when `stillCurrent` said no and nothing was replaced. The stat comes from
 * the temp file before the rename: a note renamed away right after our rename must not turn a landed write into an
 * error.
 */
export async function writeFileAtomic(
	target: string,
	content: string | Uint8Array,
	options: WriteOptions = {},
): Promise<Stats | null> {
	const replaced = await replaceFileAtomic(target, content, options);
	if (replaced === null) return null;
	await replaced.durable;
	return replaced.stats;
}

/** A replace that has happened (the new content is in place) and whose folder fsync may still be under way. */
export interface Replaced {
	stats: Stats;
	/**
	 * Resolves once the rename itself is on disk; rejects when the disk reported a failure making it durable (the new
	 * content is in place all the same). Until it resolves a crash may still bring back the old content: the write must
	 * not be acknowledged before, nor as durable at all if it rejects. Another write may go ahead meanwhile: it reads what is in
	 * place now, and its own folder fsync makes both renames durable.
	 */
	durable: Promise<void>;
}

/** writeFileAtomic without waiting for the folder fsync: the caller awaits `durable` before acknowledging. */
export async function replaceFileAtomic(
	target: string,
	content: string | Uint8Array,
	options: WriteOptions = {},
): Promise<Replaced | null> {
	const durable = options.durable ?? true;
	const temp = tempPathFor(target, tempFolderFor(target, options.tempFolder));
	let stats: Stats;
	try {
		stats = await writeNew(temp, content, durable, options.mode ?? 0o644);
		if (!options.stillCurrent) await renameLater(temp, target, options.announce);
		else if (options.stillCurrent()) renameNow(temp, target, options.announce);
		else {
			await fs.promises.rm(temp, { force: true });
			return null;
		}
	} catch (error) {
		await fs.promises.rm(temp, { force: true });
		// Nothing was replaced: written again beside the target, checked again as the first time.
		if (options.tempFolder !== undefined && crossedDevice(error, target))
			return replaceFileAtomic(target, content, options);
		throw error;
	}
	return { stats, durable: durable ? fsyncFoldersLater(dirname(target)) : Promise.resolve() };
}

/** The rename in the same synchronous step as the check before it; `announce` as in WriteOptions. */
function renameNow(temp: string, target: string, announce: WriteOptions["announce"]): void {
	const withdraw = announce?.();
	try {
		renameSync(temp, target);
	} catch (error) {
		withdraw?.();
		throw error;
	}
}

async function renameLater(temp: string, target: string, announce: WriteOptions["announce"]): Promise<void> {
	const withdraw = announce?.();
	try {
		await fs.promises.rename(temp, target);
	} catch (error) {
		withdraw?.();
		throw error;
	}
}

/**
 * Creates `target` with its full content, or returns false if anything is already there. The content is made
 * durable under a temp name first and then hard-linked into place, which fails atomically when the name is taken.
 * Rejects when the disk reports a failure making the new name durable, even though the file may be in place: it must
 * not be relied on (a kept copy that a crash could take away is not kept).
 */
export async function createFileExclusive(
	target: string,
	content: string | Uint8Array,
	announce?: () => () => void,
	tempFolder?: string,
): Promise<boolean> {
	// A taken name is answered without writing and syncing a temp file first (callers probe numbered names in turn);
	// the link below still decides atomically when the name is free.
	if (
		await fs.promises.lstat(target).then(
			() => true,
			() => false,
		)
	)
		return false;
	const temp = tempPathFor(target, tempFolderFor(target, tempFolder));
	await writeNew(temp, content, true, 0o644);
	const withdraw = announce?.();
	let crossed = false;
	try {
		await fs.promises.link(temp, target);
		return true;
	} catch (error) {
		withdraw?.();
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		crossed = tempFolder !== undefined && crossedDevice(error, target);
		if (!crossed) throw error;
	} finally {
		await fs.promises.rm(temp, { force: true });
		await fsyncFolder(dirname(target));
	}
	// Nothing was linked: made again beside the target.
	return createFileExclusive(target, content, announce, tempFolder);
}
