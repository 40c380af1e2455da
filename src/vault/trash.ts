/**
 * The headless host's trash: a deleted note moves to `<trash>/<its path>`, or, when that name is taken (or a file
 * stands where a folder of that path must go), to `<trash>/<UTC time>[-n]/<its path>`. Names never clash, so a note
 * can always be deleted, and nothing in the trash is ever replaced. A delete is made durable as a move is: the
 * folders whose entries it changed are fsynced before it is acknowledged.
 */
import { promises as fs, renameSync } from "fs";
import { dirname, join } from "path";
import { compactUtc } from "../core/conflicts";
import { fsyncFoldersLater } from "./atomic-file";
import { foldersDownTo } from "./new-folders";

const ATTEMPTS = 100;

/** A note moved into the trash. */
export interface Trashed {
	/** Where it is now, vault-relative ("/"-separated). */
	trashedTo: string;
	/**
	 * Resolves once the move is on disk (the note's old folder, and every folder from the vault down to the one it went
	 * into); rejects when the disk reported a failure doing so (the note is in the trash all the same). Marked handled
	 * at once: the writer awaits it after releasing the note's lock.
	 */
	durable: Promise<void>;
}

/**
 * Moves `absolute` (the entry named by vault path `path`: a symbolic link itself, never what it points to) into the
 * vault's trash folder (`trash`, vault-relative). `stillCurrent` is checked in the same synchronous step as the move:
 * when it says no, nothing moves and this resolves null.
 */
export async function moveToTrash(
	root: string,
	trash: string,
	path: string,
	absolute: string,
	now: Date,
	stillCurrent: () => boolean,
): Promise<Trashed | null> {
	for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
		const inTrash = attempt === 0 ? [trash] : [trash, compactUtc(now) + (attempt > 1 ? `-${attempt}` : "")];
		const trashedTo = [...inTrash, path].join("/");
		const target = join(root, trashedTo);
		if (!(await makeFolder(dirname(target))) || (await taken(target))) continue;
		if (!stillCurrent()) return null;
		try {
			renameSync(absolute, target);
		} catch (error) {
			// Someone took the name (or put a file in the way) between our look and the move: try the next name.
			if (!isNameClash(error)) throw error;
			continue;
		}
		// The whole way down, not only the folders made here: one another delete made a moment ago may not be on disk
		// yet, and a note whose old name is gone must not hang on a trash folder a crash could take away.
		return { trashedTo, durable: fsyncFoldersLater(dirname(absolute), ...foldersDownTo(root, dirname(target))) };
	}
	throw new Error(`no free name for "${path}" in the trash after ${ATTEMPTS} attempts`);
}

/** Creates a folder and its parents; false when a file stands where one of them must go. */
async function makeFolder(folder: string): Promise<boolean> {
	try {
		await fs.mkdir(folder, { recursive: true });
		return true;
	} catch (error) {
		if (isNameClash(error)) return false;
		throw error;
	}
}

async function taken(path: string): Promise<boolean> {
	return fs.lstat(path).then(
		() => true,
		() => false,
	);
}

function isNameClash(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR" || code === "ENOTEMPTY";
}
