/**
 * The headless host's trash: a deleted note moves to `<trash>/<its path>`, or, when that name is taken (or a file
 * stands where a folder of that path must go), to `<trash>/<UTC time>[-n]/<its path>`. Names never clash, so a note
 * can always be deleted, and nothing in the trash is ever replaced.
 */
import { promises as fs, renameSync } from "fs";
import { dirname, join } from "path";
import { compactUtc } from "../core/conflicts";

const ATTEMPTS = 100;

/**
 * Moves `absolute` (the note at vault path `path`) into the trash folder. `stillCurrent` is checked in the same
 * synchronous step as the move: when it says no, nothing moves and this resolves false.
 */
export async function moveToTrash(
	trash: string,
	path: string,
	absolute: string,
	now: Date,
	stillCurrent: () => boolean,
): Promise<boolean> {
	for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
		const folder = attempt === 0 ? trash : join(trash, compactUtc(now) + (attempt > 1 ? `-${attempt}` : ""));
		const target = join(folder, path);
		if (!(await makeFolder(dirname(target))) || (await taken(target))) continue;
		if (!stillCurrent()) return false;
		try {
			renameSync(absolute, target);
			return true;
		} catch (error) {
			// Someone took the name (or put a file in the way) between our look and the move: try the next name.
			if (!isNameClash(error)) throw error;
		}
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
