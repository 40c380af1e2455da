/**
 * Every file of a plain-folder vault (attachments too) with its stat, for the headless note index: walked in full at
 * most every WALK_MS, and kept current in between by the changes it hears of (other programs' through the gateway,
 * this host's own writes through `touch`), so a read does not pay for a walk of a large vault each time. A change it
 * never hears of (a watcher that dropped an event) is caught by the next walk.
 */
import type { NoteStat, VaultChange, VaultGateway } from "../../vault/gateway";

export interface FilesNow {
	files: ReadonlyMap<string, NoteStat>;
	/** True when the files were just walked (every stat is fresh); else the paths that changed since the last call. */
	walked: boolean;
	touched: ReadonlySet<string>;
}

/** How long a walk stands for the folder when nothing says otherwise. */
export const WALK_MS = 30_000;
/** Folders deeper than this are not walked (no vault a person keeps comes near it; a generated one cannot hang us). */
const MAX_DEPTH = 64;

export class VaultFiles {
	private files: Map<string, NoteStat> | null = null;
	private walkedAt = 0;
	private touched = new Set<string>();
	private unwatch: (() => void) | null = null;

	constructor(
		private readonly gateway: VaultGateway,
		private readonly clock: () => number,
	) {}

	/** `path` changed by this host's own hand (a write, a create, a delete), which its watcher may not report. */
	touch(path: string): void {
		this.touched.add(path);
	}

	close(): void {
		this.unwatch?.();
		this.unwatch = null;
	}

	async now(): Promise<FilesNow> {
		// Listening starts before the first walk, so a change made while it runs is looked at again next time.
		this.unwatch ??= this.gateway.onChange((change) => this.heard(change));
		const touched = this.touched;
		this.touched = new Set();
		if (this.files === null || this.clock() - this.walkedAt > WALK_MS || !(await this.apply(this.files, touched))) {
			this.walkedAt = this.clock();
			this.files = await this.walk();
			return { files: this.files, walked: true, touched };
		}
		return { files: this.files, walked: false, touched };
	}

	private heard(change: VaultChange): void {
		if (change.type === "rename") this.touched.add(change.oldPath);
		this.touched.add(change.path);
	}

	/** Brings `files` up to date with the changed paths; false when only a walk can (a folder came or went). */
	private async apply(files: Map<string, NoteStat>, touched: ReadonlySet<string>): Promise<boolean> {
		for (const path of touched) {
			const known = files.has(path);
			// A name without an extension may be a folder, whose contents only a walk finds.
			if (!known && !/\.[^./]+$/.test(path.slice(path.lastIndexOf("/") + 1))) return false;
			const stat = await this.gateway.stat(path).catch(() => null);
			if (stat) {
				files.set(path, stat);
				continue;
			}
			files.delete(path);
			// A folder that went away takes its files with it.
			const inside = path + "/";
			for (const file of files.keys()) if (file.startsWith(inside)) files.delete(file);
		}
		return true;
	}

	private async walk(): Promise<Map<string, NoteStat>> {
		const files = new Map<string, NoteStat>();
		const folders: { path: string; depth: number }[] = [{ path: "", depth: 0 }];
		while (folders.length > 0) {
			const folder = folders.pop()!;
			for (const entry of (await this.gateway.list(folder.path).catch(() => null)) ?? []) {
				if (entry.type === "folder") {
					if (folder.depth < MAX_DEPTH) folders.push({ path: entry.path.slice(0, -1), depth: folder.depth + 1 });
				} else if (entry.stat) {
					files.set(entry.path, entry.stat);
				}
			}
		}
		return files;
	}
}
