/** Crash-safe file writes for the headless host: temp file in the same folder, fsync, rename, fsync the folder. */
import { randomBytes } from "crypto";
import { promises as fs, renameSync, type Stats } from "fs";
import { basename, dirname, join } from "path";
import { MAX_NAME_BYTES, truncateUtf8 } from "../core/utf8";

/** Temp files are hidden (leading dot) and carry this marker, so start-up can find leftovers. */
export const TEMP_MARKER = ".rg-tmp-";

/** A hidden name beside `target`, which fits the file system's name limit however long the target's name is. */
export function tempPathFor(target: string): string {
	const tail = `${TEMP_MARKER}${randomBytes(6).toString("hex")}`;
	return join(dirname(target), "." + truncateUtf8(basename(target), MAX_NAME_BYTES - 1 - tail.length) + tail);
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
}

/** Writes a new file and returns its stat, taken from the written file itself before it is moved anywhere. */
async function writeNew(path: string, content: string | Uint8Array, durable: boolean, mode: number): Promise<Stats> {
	const handle = await fs.open(path, "wx", mode);
	try {
		await handle.writeFile(content);
		if (durable) await handle.sync();
		return await handle.stat();
	} finally {
		await handle.close();
	}
}

export async function fsyncFolder(folder: string): Promise<void> {
	let handle: fs.FileHandle | null = null;
	try {
		handle = await fs.open(folder, "r");
		await handle.sync();
	} catch {
		// Some platforms cannot fsync a directory; the rename itself is still atomic there.
	} finally {
		await handle?.close();
	}
}

/**
 * Replaces (or creates) `target` so that a crash leaves either the old or the new content, never a mix. Resolves
 * with the written file's stat, or null when `stillCurrent` said no and nothing was replaced. The stat comes from
 * the temp file before the rename: a note renamed away right after our rename must not turn a landed write into an
 * error.
 */
export async function writeFileAtomic(target: string, content: string | Uint8Array, options: WriteOptions = {}): Promise<Stats | null> {
	const durable = options.durable ?? true;
	const temp = tempPathFor(target);
	let stats: Stats;
	try {
		stats = await writeNew(temp, content, durable, options.mode ?? 0o644);
		if (!options.stillCurrent) await fs.rename(temp, target);
		else if (options.stillCurrent()) renameSync(temp, target);
		else {
			await fs.rm(temp, { force: true });
			return null;
		}
	} catch (error) {
		await fs.rm(temp, { force: true });
		throw error;
	}
	if (durable) await fsyncFolder(dirname(target));
	return stats;
}

/**
 * Creates `target` with its full content, or returns false if anything is already there. The content is made
 * durable under a temp name first and then hard-linked into place, which fails atomically when the name is taken.
 */
export async function createFileExclusive(target: string, content: string | Uint8Array): Promise<boolean> {
	// A taken name is answered without writing and syncing a temp file first (callers probe numbered names in turn);
	// the link below still decides atomically when the name is free.
	if (await fs.lstat(target).then(() => true, () => false)) return false;
	const temp = tempPathFor(target);
	await writeNew(temp, content, true, 0o644);
	try {
		await fs.link(temp, target);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	} finally {
		await fs.rm(temp, { force: true });
		await fsyncFolder(dirname(target));
	}
}
