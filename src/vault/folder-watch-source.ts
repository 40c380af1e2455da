/**
 * Where the folder watcher's events come from: Node's `fs.watch`, either one watcher per folder or one for the
 * whole tree, whichever the platform does natively.
 *
 * - Linux: one non-recursive `fs.watch` per folder (one inotify watch each). Node 20's `recursive: true` on Linux is
 *   not native: it is written in JavaScript, watches every file as well as every folder, and lists a whole folder
 *   again (synchronously, hidden entries included) whenever anything in it changes: the very cost we are leaving.
 * - macOS and Windows: one `fs.watch(root, { recursive: true })`, which the system does natively (FSEvents,
 *   ReadDirectoryChangesW). A watcher per folder there would hold a handle on every folder (on Windows that gets in
 *   the way of renaming and deleting folders).
 */
import { watch as fsWatch, type FSWatcher } from "fs";
import { basename, join } from "path";
import { childPath } from "./folder-watcher-tree";

export type WatchFunction = (
	path: string,
	options: { persistent: boolean; recursive?: boolean },
	listener: (event: string, filename: string | null) => void,
) => FSWatcher;

export interface WatchEvents {
	/** Something at this vault-relative path may have been created, changed or removed. */
	changed(path: string): void;
	/** The folder's watcher could not say what changed (no file name), or failed and was dropped (`dropped`). */
	lost(folder: string, dropped: boolean, error?: unknown): void;
}

/** "waiting": covered by a watcher of the whole tree that is down for now (it is being started again). */
export type WatchOutcome = "watching" | "gone" | "waiting" | { refused: unknown };

export interface WatchSource {
	/** Whether watching a folder also covers everything below it. */
	readonly coversTree: boolean;
	/**
	 * Starts watching `folder` (vault-relative; "" is the root); `afresh` replaces a watcher it already has (the new
	 * one starts before the old one stops). Never throws: a refusal (inotify limits) is returned.
	 */
	watch(folder: string, afresh?: boolean): WatchOutcome;
	unwatch(folder: string): void;
	/** Whether `folder` has a watcher of its own right now (a per-folder source; a recursive one says false). */
	watches(folder: string): boolean;
	close(): void;
}

export type WatchMode = "per-folder" | "recursive";

export const PLATFORM_WATCH_MODE: WatchMode =
	process.platform === "darwin" || process.platform === "win32" ? "recursive" : "per-folder";

export function openWatchSource(
	mode: WatchMode,
	root: string,
	events: WatchEvents,
	watch: WatchFunction = fsWatch,
): WatchSource {
	return mode === "recursive" ? new RecursiveSource(root, events, watch) : new PerFolderSource(root, events, watch);
}

class PerFolderSource implements WatchSource {
	readonly coversTree = false;
	private readonly watchers = new Map<string, FSWatcher>();

	constructor(
		private readonly root: string,
		private readonly events: WatchEvents,
		private readonly watchFn: WatchFunction,
	) {}

	watch(folder: string, afresh = false): WatchOutcome {
		const previous = this.watchers.get(folder);
		if (previous && !afresh) return "watching";
		const self = folder === "" ? null : basename(folder);
		let watcher: FSWatcher;
		try {
			watcher = this.watchFn(absolutePath(this.root, folder), { persistent: true }, (_event, filename) => {
				if (this.watchers.get(folder) !== watcher) return;
				if (filename === null || filename === undefined) return this.events.lost(folder, false);
				this.events.changed(childPath(folder, filename));
				// inotify names the folder itself when it is removed or moved: that is checked too (the parent's event
				// may describe a new folder made at the same path).
				if (filename === self) this.events.changed(folder);
			});
		} catch (error) {
			return isGone(error) ? "gone" : { refused: error };
		}
		watcher.on("error", (error) => {
			if (this.watchers.get(folder) !== watcher) return;
			this.unwatch(folder);
			this.events.lost(folder, true, error);
		});
		this.watchers.set(folder, watcher);
		previous?.close();
		return "watching";
	}

	unwatch(folder: string): void {
		this.watchers.get(folder)?.close();
		this.watchers.delete(folder);
	}

	watches(folder: string): boolean {
		return this.watchers.has(folder);
	}

	close(): void {
		for (const watcher of this.watchers.values()) watcher.close();
		this.watchers.clear();
	}
}

class RecursiveSource implements WatchSource {
	readonly coversTree = true;
	private watcher: FSWatcher | null = null;

	constructor(
		private readonly root: string,
		private readonly events: WatchEvents,
		private readonly watchFn: WatchFunction,
	) {}

	watch(folder: string): WatchOutcome {
		if (this.watcher) return "watching";
		// Folders below the root are covered by the root's watcher, and wait for it while it is down.
		if (folder !== "") return "waiting";
		let watcher: FSWatcher;
		try {
			watcher = this.watchFn(this.root, { persistent: true, recursive: true }, (_event, filename) => {
				if (this.watcher !== watcher) return;
				if (filename === null || filename === undefined) return this.events.lost("", false);
				this.events.changed(filename.split(/[\\/]/).join("/"));
			});
		} catch (error) {
			return isGone(error) ? "gone" : { refused: error };
		}
		watcher.on("error", (error) => {
			if (this.watcher !== watcher) return;
			this.close();
			this.events.lost("", true, error);
		});
		this.watcher = watcher;
		return "watching";
	}

	watches(): boolean {
		return false;
	}

	unwatch(): void {
		// Nothing per folder: the root's watcher covers the tree.
	}

	close(): void {
		this.watcher?.close();
		this.watcher = null;
	}
}

export function absolutePath(root: string, path: string): string {
	return path === "" ? root : join(root, ...path.split("/"));
}

function isGone(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === "ENOENT" || code === "ENOTDIR";
}
