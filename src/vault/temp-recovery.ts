/**
 * Start-up recovery for the headless host: a crash mid-write can leave a hidden temp file (the note itself is
 * never torn). Such files are moved, not deleted, into a recovery folder and reported, so nothing is silently lost.
 */
import { promises as fs } from "fs";
import { dirname, join, relative } from "path";
import { compactUtc } from "../core/conflicts";
import { fsyncFoldersLater, TEMP_MARKER } from "./atomic-file";
import { foldersDownTo } from "./new-folders";

/** A temp file this fresh may belong to a write in progress (another host on the same folder): left alone. */
const MIN_AGE_MS = 60_000;

/**
 * Moves every leftover temp file under `root` into `recoveryFolder/<UTC time>/`, keeping its relative path. Resolves
 * once the moves are on disk (each file's old folder, and the recovery folders the whole way down); rejects when the
 * disk reported a failure doing so (the files are moved all the same).
 */
export async function recoverTempFiles(root: string, recoveryFolder: string, now = new Date()): Promise<string[]> {
	const found: string[] = [];
	const walk = async (folder: string): Promise<void> => {
		if (folder === recoveryFolder || folder.startsWith(recoveryFolder + "/")) return;
		const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
		for (const entry of entries) {
			const path = join(folder, entry.name);
			if (entry.isDirectory() && entry.name !== ".git" && entry.name !== "node_modules") await walk(path);
			else if (entry.isFile() && entry.name.includes(TEMP_MARKER)) {
				const stats = await fs.stat(path).catch(() => null);
				if (stats && now.getTime() - stats.mtimeMs >= MIN_AGE_MS) found.push(path);
			}
		}
	};
	await walk(root);
	const recovered: string[] = [];
	const changed = new Set<string>();
	const batch = join(recoveryFolder, compactUtc(now));
	for (const path of found) {
		const rel = relative(root, path);
		const target = join(batch, rel);
		await fs.mkdir(dirname(target), { recursive: true });
		await fs.rename(path, target);
		recovered.push(relative(root, target));
		for (const folder of [dirname(path), ...foldersDownTo(root, dirname(target))]) changed.add(folder);
	}
	await fsyncFoldersLater(...changed);
	return recovered;
}
