/** Crash-safe file writes for the headless host: temp file in the same folder, fsync, rename, fsync the folder. */
import { randomBytes } from "crypto";
import { promises as fs } from "fs";
import { basename, dirname, join } from "path";

/** Temp files are hidden (leading dot) and carry this marker, so start-up can find leftovers. */
export const TEMP_MARKER = ".rg-tmp-";

export function tempPathFor(target: string): string {
	return join(dirname(target), `.${basename(target)}${TEMP_MARKER}${randomBytes(6).toString("hex")}`);
}

async function writeNew(path: string, content: string | Uint8Array, durable = true): Promise<void> {
	const handle = await fs.open(path, "wx", 0o644);
	try {
		await handle.writeFile(content);
		if (durable) await handle.sync();
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
 * Replaces (or creates) `target` so that a crash leaves either the old or the new content, never a mix. With
 * `durable` false the fsyncs are skipped (caches that verify their content on read).
 */
export async function writeFileAtomic(target: string, content: string | Uint8Array, durable = true): Promise<void> {
	const temp = tempPathFor(target);
	try {
		await writeNew(temp, content, durable);
		await fs.rename(temp, target);
	} catch (error) {
		await fs.rm(temp, { force: true });
		throw error;
	}
	if (durable) await fsyncFolder(dirname(target));
}

/**
 * Creates `target` with its full content, or returns false if anything is already there. The content is made
 * durable under a temp name first and then hard-linked into place, which fails atomically when the name is taken.
 */
export async function createFileExclusive(target: string, content: string | Uint8Array): Promise<boolean> {
	const temp = tempPathFor(target);
	await writeNew(temp, content);
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
