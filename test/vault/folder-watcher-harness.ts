/**
 * A folder watcher on a fresh temporary folder, with what it reported so far as "type path" lines, and ways to wait:
 * for lines to be heard, or for everything done before a marker file to have been dealt with (events of one folder
 * arrive in order, so once the marker is heard, what came before it was handled).
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { dirname, join } from "path";
import { expect } from "vitest";
import { FolderWatcher, type FolderWatcherOptions } from "../../src/vault/folder-watcher";

export interface WatchedFolder {
	root: string;
	watcher: FolderWatcher;
	heard: string[];
	troubles: string[];
	/** Writes `files` (path → content; a path ending in "/" is an empty folder) as another program would. */
	write(files: Record<string, string>): Promise<void>;
	hears(...lines: string[]): Promise<void>;
	/** Waits until a change to `marker` (in `folder`) is heard: everything done in that folder before it was handled. */
	settled(folder?: string): Promise<void>;
	close(): Promise<void>;
}

export async function watchFolder(
	files: Record<string, string> = {},
	options: FolderWatcherOptions = {},
): Promise<WatchedFolder> {
	const root = await realpath(await mkdtemp(join(tmpdir(), "rg-watch-")));
	const write = async (entries: Record<string, string>) => {
		for (const [path, content] of Object.entries(entries)) {
			if (path.endsWith("/")) await mkdir(join(root, path), { recursive: true });
			else {
				await mkdir(dirname(join(root, path)), { recursive: true });
				await writeFile(join(root, path), content);
			}
		}
	};
	await write(files);
	const heard: string[] = [];
	const troubles: string[] = [];
	const watcher = new FolderWatcher(root, { onTrouble: (message) => troubles.push(message), pollMs: 20, ...options });
	const off = watcher.subscribe((change) => heard.push(`${change.type} ${change.path}`));
	await watcher.watching();
	let markers = 0;
	const hears = async (...lines: string[]) => {
		await expect.poll(() => heard, { timeout: 10_000 }).toEqual(expect.arrayContaining(lines));
	};
	return {
		root,
		watcher,
		heard,
		troubles,
		write,
		hears,
		async settled(folder = "") {
			const marker = `${folder === "" ? "" : folder + "/"}marker-${++markers}.txt`;
			await write({ [marker]: "m" });
			await hears(`create ${marker}`);
		},
		async close() {
			off();
			await watcher.close();
			await rm(root, { recursive: true, force: true });
		},
	};
}

/** What was heard about notes (markers left out). */
export function notes(heard: string[]): string[] {
	return heard.filter((line) => !line.includes("marker-"));
}
