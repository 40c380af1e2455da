/**
 * Whether a folder's disk takes `A.md` and `a.md` for one file (macOS and Windows by default, some Linux folders): a
 * name found in the folder is looked up spelled with its case swapped, and the answer is yes only when that finds
 * the very same file (same device and inode). Key scopes follow the disk: `Private/**` must cover `private/x.md` on a
 * disk where the two are one folder, and only there.
 */
import { readdir, stat } from "fs/promises";
import { basename, dirname, join } from "path";

export async function caseInsensitiveFolder(folder: string): Promise<boolean> {
	const names = await readdir(folder).catch(() => [] as string[]);
	for (const name of names) {
		const swapped = swapCase(name);
		if (swapped !== name) return sameFile(join(folder, name), join(folder, swapped));
	}
	// An empty vault (or one of names without letters): its own name, looked up in the folder that holds it.
	const own = basename(folder);
	const swapped = swapCase(own);
	return swapped !== own && sameFile(folder, join(dirname(folder), swapped));
}

function swapCase(name: string): string {
	let swapped = "";
	for (const char of name) swapped += char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
	return swapped;
}

async function sameFile(a: string, b: string): Promise<boolean> {
	const [one, other] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
	return one !== null && other !== null && one.ino === other.ino && one.dev === other.dev;
}
