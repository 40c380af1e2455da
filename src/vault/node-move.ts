/**
 * The headless host's move of one note: a hard link under the new name, which fails atomically when that name is
 * taken (a rename would replace whatever is there), then the old name removed. The check that the note is still the
 * one decided on, the link and the unlink are one synchronous step, as the write path's check and rename are. Where
 * the disk has no hard links (FAT, some network and FUSE mounts, another file system mounted inside the vault), the
 * note is copied to a file created exclusively under the new name, and the old name removed in the same step as the
 * check; a copy whose source changed meanwhile is taken back and the move decided again. Never is anything replaced.
 * A symbolic link moves as the link itself, never what it points to (the trash moves a deleted link so).
 */
// The fs object itself (not its named exports), so a test can act exactly at a step of the move.
import fs from "fs";
import { dirname } from "path";
import { fsyncFoldersLater } from "./atomic-file";

export type MoveStep = "moved" | "changed" | "taken";

/** Link errors that mean "this disk cannot hard-link here", not "the name is taken". */
const NO_HARD_LINKS = new Set(["EXDEV", "EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK"]);

/**
 * Moves the entry at `source` (a file, or a symbolic link: the link itself) to `target` if `stillCurrent()` says it is
 * still the note decided on, in the same synchronous step. "taken": something is at `target` (nothing moved);
 * "changed": the note changed first. `bytes`: the file's content, for a disk without hard links.
 */
export async function moveNoReplace(
	source: string,
	target: string,
	bytes: Uint8Array,
	stillCurrent: () => boolean,
): Promise<MoveStep> {
	if (!stillCurrent()) return "changed";
	if (fs.lstatSync(source).isSymbolicLink()) return relinkThenUnlink(source, target);
	try {
		fs.linkSync(source, target);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? "";
		// The same file under a spelling the disk takes as equal (a change of case on macOS or Windows): a rename
		// replaces nothing there. (The check above is still this step's.)
		if (code === "EEXIST" && sameSpelling(source, target) && sameFile(source, target)) {
			fs.renameSync(source, target);
			return "moved";
		}
		if (code === "EEXIST") return "taken";
		if (!NO_HARD_LINKS.has(code)) throw error;
		return copyThenUnlink(source, target, bytes, stillCurrent);
	}
	fs.unlinkSync(source);
	return "moved";
}

/**
 * Once moved: both folders' entries made durable (the new name, and the old one gone). Rejects when the disk reported
 * a failure doing so (the note is moved all the same); awaited later by the writer, so marked handled at once.
 */
export function moveDurable(source: string, target: string): Promise<void> {
	return fsyncFoldersLater(dirname(source), dirname(target));
}

/**
 * A symbolic link made anew under `target` with the same text, then the old one removed (the caller's check just
 * before, in this same step). Not a hard link: macOS's link() may follow the link and name what it points to, and
 * symlink() fails atomically with EEXIST when the name is taken on every platform, needing no hard links. A disk that
 * cannot make links (FAT) throws: the delete fails, nothing is lost.
 */
function relinkThenUnlink(source: string, target: string): MoveStep {
	try {
		fs.symlinkSync(fs.readlinkSync(source), target);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return "taken";
		throw error;
	}
	fs.unlinkSync(source);
	return "moved";
}

async function copyThenUnlink(
	source: string,
	target: string,
	bytes: Uint8Array,
	stillCurrent: () => boolean,
): Promise<MoveStep> {
	let handle: fs.promises.FileHandle;
	try {
		handle = await fs.promises.open(target, "wx", 0o644);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return "taken";
		throw error;
	}
	try {
		await handle.writeFile(bytes);
		await handle.sync();
	} catch (error) {
		await handle.close().catch(() => undefined);
		await fs.promises.rm(target, { force: true });
		throw error;
	}
	await handle.close();
	if (!stillCurrent()) {
		// Our copy, of a note that changed while it was made: taken back, and the move is decided again.
		fs.rmSync(target, { force: true });
		return "changed";
	}
	fs.unlinkSync(source);
	return "moved";
}

/**
 * Whether two paths could be one name to a disk that ignores case (and Unicode normalization, as macOS's does). Only
 * then is "the same file at the target" the note itself: otherwise it is a second hard link another program made,
 * which a rename would leave in place (a rename between two links of one file does nothing) while reporting success.
 */
function sameSpelling(a: string, b: string): boolean {
	const fold = (path: string) => path.normalize("NFC").toLowerCase();
	return fold(a) === fold(b);
}

function sameFile(a: string, b: string): boolean {
	const first = fs.statSync(a, { bigint: true, throwIfNoEntry: false });
	const second = fs.lstatSync(b, { bigint: true, throwIfNoEntry: false });
	return first !== undefined && second !== undefined && first.dev === second.dev && first.ino === second.ino;
}
