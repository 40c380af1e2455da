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
