/**
 * Changes other programs make to a plain folder, as vault changes, from Node's own `fs.watch` events: each event
 * costs one lstat of the path it names, never a listing of the folder (see folder-watch-session.ts; which watcher
 * per platform: folder-watch-source.ts). Hidden files and folders (our state, temp files, the trash) are not notes
 * and are neither reported nor looked at; symlinks are not followed. Starts on the first listener, stops with the last.
 */
import type { VaultChange } from "./gateway";
import { WatchSession } from "./folder-watch-session";
import { PLATFORM_WATCH_MODE, type WatchFunction, type WatchMode } from "./folder-watch-source";

export interface FolderWatcherOptions {
	/** Paths never reported, decided from the name alone (no fs call); hidden paths are skipped regardless. */
	skip?: (path: string) => boolean;
	/** Told when a folder cannot be watched (inotify limits) and is polled instead; a warning on stderr by default. */
	onTrouble?: (message: string) => void;
	/** How often a folder that cannot be watched is listed again. */
	pollMs?: number;
	/** Tests only: one watcher per folder or one for the tree (by default, what the platform does natively). */
	mode?: WatchMode;
	/** Tests only: stands in for `fs.watch`. */
	watch?: WatchFunction;
}

const POLL_MS = 2000;

export class FolderWatcher {
	private readonly listeners = new Set<(change: VaultChange) => void>();
	private session: WatchSession | null = null;

	constructor(
		private readonly root: string,
		private readonly options: FolderWatcherOptions = {},
	) {}

	subscribe(listener: (change: VaultChange) => void): () => void {
		this.listeners.add(listener);
		this.start();
		return () => {
			this.listeners.delete(listener);
			if (this.listeners.size === 0) void this.close();
		};
	}

	/** Resolves once every folder is watched and listed (tests wait on it so early edits are not missed). */
	async watching(): Promise<void> {
		await this.start().ready;
	}

	/**
	 * Every regular file of the vault (not hidden, not skipped) as the running watcher knows it once its first listing
	 * is done: a listing of the whole vault without listing it again. Null when no watcher runs or the vault folder
	 * could not be watched.
	 */
	async regularFiles(): Promise<string[] | null> {
		return this.listeners.size === 0 || this.session === null ? null : this.session.regularFiles();
	}

	/**
	 * Announces our own next change to `path` (see WatchSession.expectOwnChange): it is not reported as another
	 * program's. Returns the function that withdraws it when the change did not happen.
	 */
	expectOwnChange(path: string): () => void {
		return this.session?.expectOwnChange(path) ?? (() => undefined);
	}

	/** Closes every watcher at once (a promise, as the gateway's close is). */
	close(): Promise<void> {
		this.session?.close();
		this.session = null;
		return Promise.resolve();
	}

	private start(): WatchSession {
		this.session ??= new WatchSession(
			this.root,
			{
				mode: this.options.mode ?? PLATFORM_WATCH_MODE,
				skip: this.options.skip ?? (() => false),
				onTrouble: this.options.onTrouble ?? ((message) => console.warn(message)),
				pollMs: this.options.pollMs ?? POLL_MS,
				watch: this.options.watch,
			},
			(change) => {
				for (const listener of this.listeners) listener(change);
			},
		);
		return this.session;
	}
}
