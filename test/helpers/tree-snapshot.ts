/** Snapshots of a folder tree (every file's hash, size and mtime; every folder), to prove nothing in it changed. */
import { createHash } from "crypto";
import { readdir, readFile, stat } from "fs/promises";
import { join } from "path";

/** Relative path (with /) → "folder", or the file's content hash, size and mtime. */
export type TreeSnapshot = Record<string, string>;

/**
 * Walks `root` (hidden entries included, symlinks not followed) and records every entry whose relative path
 * `include` accepts. Entries that vanish while the walk runs (temp files of a live server) are skipped.
 */
export async function snapshotTree(
	root: string,
	include: (path: string) => boolean = () => true,
): Promise<TreeSnapshot> {
	const snapshot: TreeSnapshot = {};
	const walk = async (prefix: string): Promise<void> => {
		const entries = await readdir(join(root, prefix), { withFileTypes: true }).catch(() => []);
		for (const entry of entries) {
			const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
			if (entry.isDirectory()) {
				if (include(path + "/")) snapshot[path + "/"] = "folder";
				await walk(path);
			} else if (include(path)) {
				try {
					const stats = await stat(join(root, path));
					const content = await readFile(join(root, path));
					snapshot[path] =
						`${createHash("sha256").update(content).digest("hex")} ${stats.size} bytes, mtime ${stats.mtimeMs}`;
				} catch {
					// Gone since readdir: not part of the snapshot.
				}
			}
		}
	};
	await walk("");
	return snapshot;
}
