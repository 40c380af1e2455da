/**
 * One run of the folder watcher, from the first listener to the last. An event names a path; that path alone is
 * looked at (one lstat) and compared with the tree of what is known to exist, so a change costs the same in a
 * folder of ten notes as in one of ten thousand. Hidden and skipped names are dropped before any fs call.
 */
import { lstat, promises as fs, type Stats } from "fs";
import { FolderPoller } from "./folder-watch-poller";
import {
	absolutePath,
	openWatchSource,
	type WatchEvents,
	type WatchFunction,
	type WatchMode,
	type WatchSource,
} from "./folder-watch-source";
import { OwnChanges } from "./folder-watch-own-changes";
import { childPath, identityOf, isHiddenPath, KnownTree, nameOf, parentOf } from "./folder-watcher-tree";
import type { VaultChange } from "./gateway";

export interface SessionOptions {
	mode: WatchMode;
	/** Paths never reported and never looked at: a pure test of the name. */
	skip: (path: string) => boolean;
	/** Told when a folder cannot be watched and is polled instead. */
	onTrouble: (message: string) => void;
	pollMs: number;
	watch?: WatchFunction;
}

type Emit = (change: Extract<VaultChange, { type: "create" | "modify" | "delete" }>) => void;

export class WatchSession implements WatchEvents {
	readonly ready: Promise<void>;
	private tree: KnownTree | null = null;
	private readonly source: WatchSource;
	private readonly poller: FolderPoller;
	/** Paths being looked at, and whether another event came for them meanwhile (they are looked at once more). */
	private readonly checks = new Map<string, { again: boolean }>();
	/** Folders whose listing is being read, with the names an event named meanwhile (the event decides for those). */
	private readonly listings = new Map<string, Set<string>>();
	private closed = false;
	private troubled = false;
	private readonly own: OwnChanges;

	constructor(
		private readonly root: string,
		private readonly options: SessionOptions,
		private readonly emit: Emit,
	) {
		this.source = openWatchSource(options.mode, root, this, options.watch);
		this.poller = new FolderPoller(root, options.pollMs, {
			ignored: (path) => this.ignored(path),
			knownChildren: (folder) => this.tree?.childrenOf(folder) ?? new Map(),
			// A listing can merge two changes into one: it never stands for one of our own (see expectOwnChange).
			changed: (path) => this.look(path),
			watchAgain: (folder) => this.source.watch(folder) === "watching",
		});
		this.own = new OwnChanges({
			tree: () => this.tree,
			// A folder not watched yet, or polled, would leave the announcement to take another program's event.
			eventSure: (folder) =>
				!this.source.coversTree &&
				!this.closed &&
				this.tree?.hasFolder(folder) === true &&
				this.source.watches(folder) &&
				!this.poller.has(folder),
			look: (path) => this.look(path),
		});
		this.ready = this.start();
	}

	close(): void {
		this.closed = true;
		this.source.close();
		this.poller.close();
	}

	/**
	 * Our own next change to `path` (a note renamed over it, a .bak linked into place) is neither reported nor looked
	 * at: the writer already knows what it wrote. Only with a watcher per folder, where each change is an event of its
	 * own (inotify never merges two renames or creates; a recursive watcher may merge an outside save into ours), so
	 * exactly one event is spent and any other change still has its own. Call before the change; the returned
	 * function withdraws it when the change did not happen. Unspent, it lapses after OWN_CHANGE_MS.
	 */
	expectOwnChange(path: string): () => void {
		return this.own.expect(path);
	}

	/**
	 * Every regular file of the vault as listed by this session (and kept up to date by its events since), once its
	 * first listing is done; null when the vault folder could not be watched.
	 */
	async regularFiles(): Promise<string[] | null> {
		await this.ready;
		return this.closed || this.tree === null ? null : this.tree.regularFiles();
	}

	changed(path: string): void {
		if (!this.own.take(path)) this.look(path);
	}

	private look(path: string): void {
		if (this.closed || this.ignored(path)) return;
		this.listings.get(parentOf(path))?.add(nameOf(path));
		// (The tree exists before any watcher is started.)
		if (this.tree) this.check(this.tree.topmostUnknown(path));
	}

	lost(folder: string, dropped: boolean, error?: unknown): void {
		if (this.closed || !this.tree?.hasFolder(folder)) return;
		this.own.drop(folder);
		if (dropped) this.trouble(`${shown(folder)} lost its watcher (${describe(error)})`);
		const folders = this.source.coversTree ? this.tree.foldersUnder(folder) : [folder];
		for (const each of folders) this.poller.add(each, dropped);
	}

	/** Said once per run: past inotify's limits every further folder would say the same. */
	private trouble(what: string): void {
		if (this.troubled) return;
		this.troubled = true;
		this.options.onTrouble(
			`${what}. Changes there, and in any other folder that cannot be watched, are found ` +
				`by listing it every ${this.options.pollMs / 1000} s until it can be watched again.`,
		);
	}

	private ignored(path: string): boolean {
		return isHiddenPath(path) || this.options.skip(path);
	}

	private async start(): Promise<void> {
		const stats = await fs.lstat(this.root).catch((error: unknown) => {
			this.options.onTrouble(`The vault folder cannot be watched (${describe(error)}).`);
			return null;
		});
		if (this.closed || stats === null) return;
		this.tree = new KnownTree(identityOf(stats));
		await this.list("", false);
	}

	/** Looks at `path` (one lstat); events for a path being looked at make it looked at once more, in order. */
	private check(path: string): void {
		if (path === "") return;
		const running = this.checks.get(path);
		if (running) {
			running.again = true;
			return;
		}
		const state = { again: false };
		this.checks.set(path, state);
		const look = () =>
			lstat(absolutePath(this.root, path), (error, stats) => {
				if (this.closed) return;
				this.apply(path, error ? null : stats);
				if (!state.again) return void this.checks.delete(path);
				state.again = false;
				look();
			});
		look();
	}

	private apply(path: string, stats: Stats | null): void {
		const tree = this.tree!;
		const known = tree.kindOf(path);
		if (stats === null) {
			if (known !== undefined) this.forget(path);
			return;
		}
		// Its folder was removed while we looked: the folder is looked at instead.
		if (!tree.hasFolder(parentOf(path))) return this.check(tree.topmostUnknown(path));
		if (stats.isDirectory()) {
			const identity = identityOf(stats);
			if (known === "folder" && tree.identityOf(path) === identity) {
				// An event named the folder itself. A watcher per folder follows an inode, and a folder removed and made
				// again at once may get the same inode number: so it is watched afresh and listed once (rare: writing
				// notes in it never names the folder). A recursive watcher follows names and needs none of this.
				if (!this.source.coversTree) void this.list(path, true, true);
				return;
			}
			if (known !== undefined) this.forget(path);
			void this.discover(path, identity, true);
			return;
		}
		// Symlinks are not followed: a link is reported as an entry of its own, like a file.
		const kind = stats.isFile() ? "file" : "other";
		if (known === "file" || known === "other") {
			if (known !== kind) tree.addFile(path, kind);
			return this.emit({ type: "modify", path });
		}
		if (known === "folder") this.forget(path);
		tree.addFile(path, kind);
		this.emit({ type: "create", path });
	}

	/** `path` is gone: it, and for a folder every note under it, is reported deleted (from memory, no fs call). */
	private forget(path: string): void {
		const forgotten = this.tree!.remove(path);
		for (const folder of forgotten.folders) {
			this.source.unwatch(folder);
			this.poller.remove(folder);
		}
		for (const file of forgotten.files) this.emit({ type: "delete", path: file });
	}

	/** A folder seen for the first time: watched first, then listed once, so nothing made in it meanwhile is missed. */
	private async discover(folder: string, identity: string, report: boolean): Promise<void> {
		if (!this.tree!.addFolder(folder, identity)) return;
		await this.list(folder, report);
	}

	/** Watches `folder`, lists it, and reports what is new in it (and looks at what it no longer holds). */
	private async list(folder: string, report: boolean, afresh = false): Promise<void> {
		const touched = new Set<string>();
		this.listings.set(folder, touched);
		const watched = this.source.watch(folder, afresh);
		if (typeof watched === "object") this.trouble(`${shown(folder)} cannot be watched (${describe(watched.refused)})`);
		if (typeof watched === "object" || watched === "waiting") {
			this.own.drop(folder);
			this.poller.add(folder, true);
		}
		const entries = await fs.readdir(absolutePath(this.root, folder), { withFileTypes: true }).catch(() => null);
		const current = () => !this.closed && this.listings.get(folder) === touched;
		if (!current()) return;
		if (entries === null) {
			this.listings.delete(folder);
			// Gone since (an unreadable folder is left as it is: its notes cannot be read either).
			if ((await fs.lstat(absolutePath(this.root, folder)).catch(() => null)) === null && !this.closed)
				this.forget(folder);
			return;
		}
		const subfolders: string[] = [];
		const tree = this.tree!;
		// Looked up once for the whole listing: a start lists tens of thousands of notes here.
		const known = tree.childrenOf(folder);
		const folderKnown = tree.hasFolder(folder);
		// Only a folder listed before can have lost a name since (its first listing, at start, has nothing to compare).
		if (known.size > 0) {
			const names = new Set(entries.map((entry) => entry.name));
			for (const name of known.keys()) if (!names.has(name) && !touched.has(name)) this.check(childPath(folder, name));
		}
		for (const entry of entries) {
			const name = entry.name;
			// A hidden name (the folder listed is never hidden: see ignored), or one an event or the tree speaks for.
			if (name.startsWith(".") || touched.has(name) || known.has(name)) continue;
			const path = childPath(folder, name);
			if (this.options.skip(path)) continue;
			if (entry.isDirectory()) subfolders.push(path);
			else if (folderKnown) {
				tree.addFileIn(folder, name, entry.isFile() ? "file" : "other");
				if (report) this.emit({ type: "create", path });
			}
		}
		const found = await Promise.all(
			subfolders.map((path) => fs.lstat(absolutePath(this.root, path)).catch(() => null)),
		);
		if (!current()) return;
		this.listings.delete(folder);
		const listed: Promise<void>[] = [];
		subfolders.forEach((path, index) => {
			const stats = found[index];
			// An event for it came meanwhile (its own look decides), or it is no longer a folder.
			if (touched.has(nameOf(path)) || !stats?.isDirectory() || this.tree!.kindOf(path) !== undefined) return;
			listed.push(this.discover(path, identityOf(stats), report));
		});
		await Promise.all(listed);
	}
}

function shown(folder: string): string {
	return folder === "" ? "The vault folder" : `The folder ${folder}`;
}

function describe(error: unknown): string {
	return (error as NodeJS.ErrnoException)?.code ?? String(error);
}
