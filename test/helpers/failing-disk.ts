/**
 * A disk whose folder fsync fails, for the durability paths: every fsync of a directory answers `code` (EIO, ENOSPC,
 * or one of the codes a platform gives when it cannot fsync a folder at all); files are fsynced as usual. It acts on
 * the fs object the vault modules call through, so the real headless stack meets it too. Undone by vi.restoreAllMocks.
 */
import fs from "fs";
import { vi } from "vitest";

export function failFolderFsync(code: string): { failed: () => number } {
	let failed = 0;
	const fsync = fs.fsync.bind(fs);
	vi.spyOn(fs, "fsync").mockImplementation((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
		let folder = false;
		try {
			folder = fs.fstatSync(fd).isDirectory();
		} catch {
			// Not ours to judge: the real fsync answers.
		}
		if (!folder) return fsync(fd, callback);
		failed++;
		const error: NodeJS.ErrnoException = Object.assign(new Error(`${code}: fsync of a folder failed`), {
			code,
			syscall: "fsync",
		});
		// Answered later, as the thread pool answers.
		setImmediate(() => callback(error));
	});
	return { failed: () => failed };
}

/**
 * A sound disk whose folder fsyncs are written down as they complete (each folder's real path, read from the
 * descriptor), so a test can say which folders were made durable before an answer. Undone by vi.restoreAllMocks.
 */
export function recordFolderFsyncs(): { folders: () => string[] } {
	const folders: string[] = [];
	const fsync = fs.fsync.bind(fs);
	vi.spyOn(fs, "fsync").mockImplementation((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
		let folder: string | null = null;
		try {
			if (fs.fstatSync(fd).isDirectory()) folder = fs.readlinkSync(`/proc/self/fd/${fd}`);
		} catch {
			// Not a folder (or not named on this platform): not written down.
		}
		fsync(fd, (error) => {
			if (folder !== null && !error) folders.push(folder);
			callback(error);
		});
	});
	return { folders: () => [...folders] };
}
