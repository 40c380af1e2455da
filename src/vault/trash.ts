/**
 * The headless host's trash: a deleted note moves to `<trash>/<its path>`, or, when that name is taken (or a file
 * stands where a folder of that path must go), to `<trash>/<UTC time>[-n]/<its path>`. Names never clash, so a note
 * can always be deleted, and nothing in the trash is ever replaced: the note moves as a move does (node-move.ts),
 * which fails atomically when another program took the name after ours was chosen, and the next name is tried. A
 * delete is made durable as a move is: the folders whose entries it changed are fsynced before it is acknowledged.
 */
import { promises as fs } from "fs";
import { dirname, join } from "path";
import { compactUtc } from "../core/conflicts";
import { fsyncFoldersLater } from "./atomic-file";
import { foldersDownTo } from "./new-folders";
import { moveNoReplace } from "./node-move";

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
 * when it says no, nothing moves and this resolves null. `bytes`: the note's content as decided on, copied where the
 * disk has no hard links.
 */
export async function moveToTrash(
	root: string,
	trash: string,
	path: string,
	absolute: string,
	bytes: Uint8Array,
	now: Date,
	stillCurrent: () => boolean,
): Promise<Trashed | null> {
	for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
		const inTrash = attempt === 0 ? [trash] : [trash, compactUtc(now) + (attempt > 1 ? `-${attempt}` : "")];
		const trashedTo = [...inTrash, path].join("/");
		const target = join(root, trashedTo);
		if (!(await makeFolder(dirname(target)))) continue;
		let step;
		try {
			step = await moveNoReplace(absolute, target, bytes, stillCurrent);
		} catch (error) {
			// A file put in the way of the trash folder since it was made: try the next name.
			if (!isNameClash(error)) throw error;
			continue;
		}
		if (step === "changed") return null;
		// Someone has that name (perhaps took it a moment ago): try the next one.
		if (step === "taken") continue;
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

function isNameClash(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR" || code === "ENOTEMPTY";
}
