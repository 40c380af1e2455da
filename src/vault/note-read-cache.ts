/**
 * The headless gateway's read cache: the text of recently read notes, each valid while ONE stat of its path shows
 * the very file it was read from (device, inode, size, and modification and change times in nanoseconds).
 *
 * It may only make reads faster. Nothing that decides a write uses it: the guarded writer's check reads the real
 * bytes on disk (note-file.ts `readForDecision`) every time. So a stale entry can at worst hand an agent an old
 * revision, and that agent's write is then refused (412, its body kept) — a spurious refusal, never a lost update.
 *
 * A change within the same tick of the file system's clock as an earlier one can leave every field of the stat
 * equal. So an entry is kept only for a file that had settled (note-file.ts `settledBefore`, git's "racily clean"
 * rule) when it was read; a note that is being written right now is read from disk every time.
 */
import { stat, type BigIntStats } from "fs";
import type { NoteSnapshot } from "./gateway";

/** Notes above this size are not kept (one such read is slow anyway, and memory matters more). */
const MAX_ENTRY_CHARS = 1024 * 1024;
/**
 * The whole cache's bound, in characters of note text (one byte each for plain text, two for other scripts): a
 * few thousand typical notes, the ones agents are reading now; a start-up reconcile cycles through it.
 */
const MAX_TOTAL_CHARS = 8 * 1024 * 1024;

interface Entry {
	snapshot: NoteSnapshot;
	identity: BigIntStats;
}

export class NoteReadCache {
	/** In order of use, oldest first (a Map keeps insertion order; a hit moves its entry to the end). */
	private readonly entries = new Map<string, Entry>();
	private totalChars = 0;

	/** The cached note when one stat shows the same file it was read from; null sends the caller to the disk. */
	lookup(path: string, absolute: string): Promise<NoteSnapshot | null> {
		const entry = this.entries.get(path);
		if (entry === undefined) return Promise.resolve(null);
		return new Promise((resolve) => {
			stat(absolute, { bigint: true }, (error, now) => {
				// Looked up again: the entry may have been replaced or dropped while the stat ran.
				if (error || this.entries.get(path) !== entry || !sameFile(now, entry.identity)) return resolve(null);
				this.entries.delete(path);
				this.entries.set(path, entry);
				resolve(entry.snapshot);
			});
		});
	}

	/** Keeps a note just read from disk, if it had settled by then (see above) and is not too large. */
	keep(snapshot: NoteSnapshot, identity: BigIntStats, settled: boolean): void {
		this.forget(snapshot.path);
		if (!settled || identity.ino === 0n || snapshot.content.length > MAX_ENTRY_CHARS) return;
		this.entries.set(snapshot.path, { snapshot, identity });
		this.totalChars += snapshot.content.length;
		for (const [path] of this.entries) {
			if (this.totalChars <= MAX_TOTAL_CHARS) break;
			this.forget(path);
		}
	}

	/** Drops a note's entry (its file was written, moved or removed by us; the stat would tell, but memory need not wait). */
	forget(path: string): void {
		const entry = this.entries.get(path);
		if (entry === undefined) return;
		this.entries.delete(path);
		this.totalChars -= entry.snapshot.content.length;
	}

	clear(): void {
		this.entries.clear();
		this.totalChars = 0;
	}
}

function sameFile(now: BigIntStats, then: BigIntStats): boolean {
	return (
		now.isFile() &&
		now.dev === then.dev &&
		now.ino === then.ino &&
		now.size === then.size &&
		now.mtimeNs === then.mtimeNs &&
		now.ctimeNs === then.ctimeNs
	);
}
