/**
 * The fallback for a folder the system will not let us watch (inotify limits: ENOSPC, EMFILE) or whose watcher
 * failed: it is listed every few seconds (a readdir and an lstat per entry) and whatever looks different is handed
 * back as changed, until watching it works again. The first pass hands back every entry (an extra "modify" is
 * harmless; a change made before polling began must not be missed).
 */
import { promises as fs } from "fs";
import { clearTimeout, setTimeout } from "timers";
import { absolutePath } from "./folder-watch-source";
import { childPath, type EntryKind } from "./folder-watcher-tree";

export interface PollerHost {
	ignored(path: string): boolean;
	knownChildren(folder: string): ReadonlyMap<string, EntryKind>;
	changed(path: string): void;
	/** Tries to watch `folder` again; true when it is watched now. */
	watchAgain(folder: string): boolean;
}

export class FolderPoller {
	/** Polled folders, with each entry's look at the last pass (null: hand back every entry at the next pass). */
	private readonly folders = new Map<string, { looks: Map<string, string> | null }>();
	private timer: ReturnType<typeof setTimeout> | null = null;
	private polling = false;
	private closed = false;

	constructor(
		private readonly root: string,
		private readonly intervalMs: number,
		private readonly host: PollerHost,
	) {}

	add(folder: string, handBackAll: boolean): void {
		// A new record, so a pass still under way for the old one does not settle this request.
		if (!this.folders.has(folder) || handBackAll) this.folders.set(folder, { looks: null });
		this.schedule();
	}

	/** Whether `folder` is being listed in turn (its watcher failed or was refused). */
	has(folder: string): boolean {
		return this.folders.has(folder);
	}

	remove(folder: string): void {
		this.folders.delete(folder);
	}

	close(): void {
		this.closed = true;
		this.folders.clear();
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
	}

	private schedule(): void {
		if (this.timer || this.polling || this.closed || this.folders.size === 0) return;
		this.timer = setTimeout(() => void this.poll(), this.intervalMs);
		// Polling alone never keeps the process running.
		this.timer.unref?.();
	}

	private async poll(): Promise<void> {
		this.timer = null;
		this.polling = true;
		for (const folder of [...this.folders.keys()]) {
			const polled = this.folders.get(folder);
			if (this.closed || !polled) continue;
			// Watched again before this last pass, so nothing changed between the two is missed.
			const watched = this.host.watchAgain(folder);
			await this.pass(folder, polled);
			if (watched && this.folders.get(folder) === polled) this.folders.delete(folder);
		}
		this.polling = false;
		this.schedule();
	}

	private async pass(folder: string, polled: { looks: Map<string, string> | null }): Promise<void> {
		const before = polled.looks;
		const entries = await fs.readdir(absolutePath(this.root, folder), { withFileTypes: true }).catch(() => null);
		if (this.closed || this.folders.get(folder) !== polled) return;
		// The folder itself is gone (or unreadable): looking at it reports what it held.
		if (entries === null) return this.host.changed(folder);
		const seen = new Map<string, string>();
		await Promise.all(
			entries.map(async (entry) => {
				const path = childPath(folder, entry.name);
				if (this.host.ignored(path)) return;
				const stats = await fs.lstat(absolutePath(this.root, path)).catch(() => null);
				const look = stats ? `${stats.mode}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}` : "gone";
				seen.set(entry.name, look);
				if (before?.get(entry.name) !== look) this.host.changed(path);
			}),
		);
		if (this.closed || this.folders.get(folder) !== polled) return;
		for (const name of this.host.knownChildren(folder).keys())
			if (!seen.has(name)) this.host.changed(childPath(folder, name));
		polled.looks = seen;
	}
}
