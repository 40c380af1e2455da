/**
 * A lock file that survives a crash: it names its holder (see running-marker.ts), so a lock left by a process that
 * died is recognised and taken over, while one held by a live process (or by one on another machine, which cannot
 * be judged from here) refuses.
 *
 * The lock appears whole or not at all: the record is written to a temp file first and hard-linked into place,
 * which fails if the lock exists (a file created with O_EXCL could be read while still empty). A file system
 * without hard links gets O_EXCL instead. A stale lock is renamed aside before the new one is linked, so of two
 * processes taking over one stale lock at once, only the one whose rename moved it goes on.
 */
import { randomBytes } from "crypto";
import { promises as fs, readFileSync, unlinkSync } from "fs";
import { dirname } from "path";
import { parseHolder, type HolderRecord } from "../host/running-marker";
import { livenessOf, type Liveness } from "./holder-liveness";

export interface HeldLock {
	readonly path: string;
	readonly record: HolderRecord;
	/** The dead holder whose lock this one replaced ("unreadable": a damaged lock file, long untouched), if it did. */
	readonly tookOver: HolderRecord | "unreadable" | null;
	/** Removes the lock if it is still this one's. */
	release(): Promise<void>;
	/** The same, synchronously (from a process "exit" handler). */
	releaseSync(): void;
}

export type LockAttempt =
	| { held: HeldLock }
	/** Held by a live process (or one on another machine); `holder` is null when the file cannot be read. */
	| { refused: { holder: HolderRecord | null; liveness: Liveness | "unreadable" } };

/** A lock file that cannot be read and is younger than this may be being written (O_EXCL): it is not yet stale. */
const UNREADABLE_GRACE_MS = 10_000;
/** Rounds of "it was there, then it was gone" before giving up (only a busy race would need more than two). */
const ATTEMPTS = 8;

/** What holds the lock now, without taking it: null when nothing (or a dead process) does. */
export async function peekLock(
	path: string,
): Promise<{ holder: HolderRecord | null; liveness: Liveness | "unreadable" } | null> {
	const found = await readHolder(path);
	if (found === null) return null;
	const verdict = judge(found);
	return verdict === "stale" ? null : verdict;
}

export async function takeLock(path: string, record: HolderRecord): Promise<LockAttempt> {
	await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
	const text = JSON.stringify(record, null, "\t");
	let tookOver: HolderRecord | "unreadable" | null = null;
	for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
		if (await createExclusive(path, text)) return { held: heldLock(path, record, tookOver) };
		const found = await readHolder(path);
		if (found === null) continue;
		const verdict = judge(found);
		if (verdict !== "stale") return { refused: verdict };
		if (await moveAsideIfUnchanged(path, found.text)) tookOver = found.holder ?? "unreadable";
	}
	const found = await readHolder(path);
	return {
		refused: found ? { holder: found.holder, liveness: "unreadable" } : { holder: null, liveness: "unreadable" },
	};
}

/** Takes the lock, retrying for up to `waitMs` while a live holder has it (for short holders: a keys command). */
export async function takeLockWaiting(path: string, record: HolderRecord, waitMs: number): Promise<LockAttempt> {
	const deadline = Date.now() + waitMs;
	for (;;) {
		const attempt = await takeLock(path, record);
		if ("held" in attempt || Date.now() >= deadline || attempt.refused.liveness === "elsewhere") return attempt;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

interface Found {
	text: string;
	holder: HolderRecord | null;
	modified: number;
}

async function readHolder(path: string): Promise<Found | null> {
	try {
		const [text, stats] = await Promise.all([fs.readFile(path, "utf8"), fs.stat(path)]);
		return { text, holder: parseHolder(text), modified: stats.mtimeMs };
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

function judge(found: Found): { holder: HolderRecord | null; liveness: Liveness | "unreadable" } | "stale" {
	if (found.holder === null)
		return Date.now() - found.modified > UNREADABLE_GRACE_MS ? "stale" : { holder: null, liveness: "unreadable" };
	const liveness = livenessOf(found.holder);
	return liveness === "gone" ? "stale" : { holder: found.holder, liveness };
}

/** Creates `path` holding `text`, or returns false when it exists. */
async function createExclusive(path: string, text: string): Promise<boolean> {
	const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
	await fs.writeFile(temp, text, { mode: 0o600, flag: "wx" });
	try {
		await fs.link(temp, path);
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EEXIST") return false;
		if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS" && code !== "EOPNOTSUPP") throw error;
		// No hard links here (some network and FAT file systems): O_EXCL, written at once.
		try {
			await fs.writeFile(path, text, { mode: 0o600, flag: "wx" });
			return true;
		} catch (fallback) {
			if ((fallback as NodeJS.ErrnoException).code === "EEXIST") return false;
			throw fallback;
		}
	} finally {
		await fs.rm(temp, { force: true });
	}
}

/**
 * Moves a stale lock out of the way, provided it is still the one judged stale. If another process took it over
 * between our read and our rename, what we moved is its fresh lock: it is linked back (if nothing took its place
 * meanwhile) and we start over, to meet that live holder.
 */
async function moveAsideIfUnchanged(path: string, staleText: string): Promise<boolean> {
	const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
	try {
		await fs.rename(path, aside);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
		throw error;
	}
	const moved = await fs.readFile(aside, "utf8").catch(() => null);
	if (moved !== staleText) {
		await fs.link(aside, path).catch(() => undefined);
		await fs.rm(aside, { force: true });
		return false;
	}
	await fs.rm(aside, { force: true });
	return true;
}

function heldLock(path: string, record: HolderRecord, tookOver: HeldLock["tookOver"]): HeldLock {
	const stillMine = (text: string | null) => text !== null && parseHolder(text)?.nonce === record.nonce;
	return {
		path,
		record,
		tookOver,
		async release() {
			if (stillMine(await fs.readFile(path, "utf8").catch(() => null))) await fs.rm(path, { force: true });
		},
		releaseSync() {
			try {
				if (stillMine(readFileSync(path, "utf8"))) unlinkSync(path);
			} catch {
				// Already gone, or the folder is: nothing of ours is left to remove.
			}
		},
	};
}
