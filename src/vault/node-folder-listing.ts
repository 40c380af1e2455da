/**
 * The headless gateway's listings: one folder's entries, and every note below the root. Hidden entries are never
 * listed, and symlinks are not followed at all.
 */
import { promises as fs } from "fs";
import { join } from "path";
import type { FolderEntry } from "./gateway";
import { toStat } from "./note-file";

/** The entries of the folder at `absolute` (vault-relative `folder`), sorted; null when it cannot be read. */
export async function listFolderAt(absolute: string, folder: string): Promise<FolderEntry[] | null> {
	let entries;
	try {
		entries = await fs.readdir(absolute, { withFileTypes: true });
	} catch {
		return null;
	}
	const result: FolderEntry[] = [];
	for (const entry of entries) {
		if (entry.name.startsWith(".") || entry.isSymbolicLink()) continue;
		const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
		if (entry.isDirectory()) result.push({ path: path + "/", type: "folder" });
		else if (entry.isFile()) {
			const stats = await fs.stat(join(absolute, entry.name)).catch(() => null);
			if (stats) result.push({ path, type: "file", stat: toStat(stats) });
		}
	}
	return result.sort((a, b) => a.path.localeCompare(b.path));
}

/** Every note below `root` with one of `extensions`, as vault-relative paths. */
export async function listNotesUnder(root: string, extensions: readonly string[]): Promise<string[]> {
	const found: string[] = [];
	const walk = async (folder: string, prefix: string): Promise<void> => {
		const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
		for (const entry of entries) {
			if (entry.name.startsWith(".") || entry.isSymbolicLink()) continue;
			const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
			if (entry.isDirectory()) await walk(join(folder, entry.name), path);
			else if (entry.isFile() && hasExtension(entry.name, extensions)) found.push(path);
		}
	};
	await walk(root, "");
	return found;
}

export function hasExtension(name: string, extensions: readonly string[]): boolean {
	const lower = name.toLowerCase();
	return extensions.some((ext) => lower.endsWith("." + ext.toLowerCase()));
}
