// @ts-check
/**
 * What one agent session last read (or wrote) of each note: the revision, and whether it saw the whole note. One
 * small file per note in a private folder per session, each replaced whole by a rename, so hook processes running at
 * once (an agent reading several notes in parallel) never tear or lose one another's records.
 *
 * Bounded: a session keeps its most recent notes, and the oldest sessions go once there are too many or they are
 * too old. Forgetting is always safe: a note the session has no record of is refused until it is read again.
 */
import { createHash, randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** @typedef {{ revision: string, part: boolean }} SessionRead */
/** @typedef {{ notesPerSession: number, sessions: number, sessionAgeMs: number }} SessionLimits */

/** @type {SessionLimits} */
export const DEFAULT_LIMITS = { notesPerSession: 2000, sessions: 100, sessionAgeMs: 7 * 24 * 60 * 60 * 1000 };
/** A temp file this old was left by a hook that died between writing and renaming it. */
const ABANDONED_TEMP_MS = 60 * 60 * 1000;
const SESSION_FOLDER = /^[0-9a-f]{32}$/;

export class StateFolderError extends Error {}

/** Under the OS temp folder, one per user: records are per session and need not outlive a reboot. */
export function defaultStateRoot() {
	const user = typeof process.getuid === "function" ? String(process.getuid()) : (process.env.USERNAME ?? "user");
	return join(tmpdir(), `revision-guard-hook-${user}`);
}

/**
 * @param {string} root the state folder (made private if new; refused if it is not private)
 * @param {string} sessionKey names the session (and the host and vault it talks to)
 * @param {SessionLimits} [limits]
 */
export async function openSessionReads(root, sessionKey, limits = DEFAULT_LIMITS) {
	await ensurePrivateFolder(root);
	const folder = join(root, digest(sessionKey).slice(0, 32));
	const isNew = await mkdir(folder, { mode: 0o700 }).then(
		() => true,
		(/** @type {NodeJS.ErrnoException} */ error) => {
			if (error.code === "EEXIST") return false;
			throw error;
		},
	);
	if (isNew) await pruneSessions(root, folder, limits);
	const fileOf = (/** @type {string} */ path) => join(folder, `${digest(path).slice(0, 40)}.json`);

	return {
		/** @returns {Promise<SessionRead | null>} */
		async get(/** @type {string} */ path) {
			try {
				const record = /** @type {unknown} */ (JSON.parse(await readFile(fileOf(path), "utf8")));
				return asRecordOf(path, record);
			} catch {
				return null;
			}
		},
		async remember(/** @type {string} */ path, /** @type {SessionRead} */ read) {
			const file = fileOf(path);
			const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
			await writeFile(temp, JSON.stringify({ path, revision: read.revision, part: read.part }), {
				mode: 0o600,
				flag: "wx",
			});
			await rename(temp, file);
			const now = new Date();
			await utimes(folder, now, now).catch(() => undefined);
			await pruneNotes(folder, limits.notesPerSession);
		},
		async forget(/** @type {string} */ path) {
			await unlink(fileOf(path)).catch(() => undefined);
		},
	};
}

/** @param {string} path @param {unknown} record @returns {SessionRead | null} */
function asRecordOf(path, record) {
	if (typeof record !== "object" || record === null) return null;
	const { path: recorded, revision, part } = /** @type {Record<string, unknown>} */ (record);
	// Two paths with the same digest never mix: the record names its note.
	if (recorded !== path || typeof revision !== "string" || revision === "") return null;
	return { revision, part: part === true };
}

/** Made with 0700 if missing; an existing one must be a real folder of ours that no one else can read or write. */
async function ensurePrivateFolder(/** @type {string} */ root) {
	await mkdir(root, { recursive: true, mode: 0o700 });
	const info = await lstat(root);
	const ours = typeof process.getuid !== "function" || info.uid === process.getuid();
	const privateMode = process.platform === "win32" || (info.mode & 0o077) === 0;
	if (!info.isDirectory() || !ours || !privateMode) {
		throw new StateFolderError(
			`the state folder ${root} is not a private folder of this user (it must be a folder, not a link, owned by you, mode 0700). Remove it, or set RG_HOOK_STATE_DIR to another folder.`,
		);
	}
}

/** Keeps the `max` most recently written records of a session; removes temp files a dead hook left. */
async function pruneNotes(/** @type {string} */ folder, /** @type {number} */ max) {
	const names = await readdir(folder).catch(() => /** @type {string[]} */ ([]));
	const now = Date.now();
	for (const name of names.filter((entry) => entry.endsWith(".tmp"))) {
		const info = await stat(join(folder, name)).catch(() => null);
		if (info && now - info.mtimeMs > ABANDONED_TEMP_MS) await unlink(join(folder, name)).catch(() => undefined);
	}
	const records = names.filter((name) => name.endsWith(".json"));
	if (records.length <= max) return;
	const dated = await Promise.all(
		records.map(async (name) => ({ name, mtime: (await stat(join(folder, name)).catch(() => null))?.mtimeMs ?? 0 })),
	);
	dated.sort((a, b) => a.mtime - b.mtime);
	for (const { name } of dated.slice(0, dated.length - max)) await unlink(join(folder, name)).catch(() => undefined);
}

/** Removes sessions older than the age limit, then the oldest beyond the count (never the one just made). */
async function pruneSessions(
	/** @type {string} */ root,
	/** @type {string} */ current,
	/** @type {SessionLimits} */ limits,
) {
	const names = await readdir(root).catch(() => /** @type {string[]} */ ([]));
	const now = Date.now();
	const sessions = [];
	for (const name of names) {
		const path = join(root, name);
		// Only folders this hook made: the state folder may be one the person chose, with other things in it.
		if (path === current || !SESSION_FOLDER.test(name)) continue;
		const info = await lstat(path).catch(() => null);
		if (!info?.isDirectory()) continue;
		if (now - info.mtimeMs > limits.sessionAgeMs)
			await rm(path, { recursive: true, force: true }).catch(() => undefined);
		else sessions.push({ path, mtime: info.mtimeMs });
	}
	sessions.sort((a, b) => a.mtime - b.mtime);
	const excess = sessions.length + 1 - limits.sessions;
	for (const { path } of sessions.slice(0, Math.max(0, excess)))
		await rm(path, { recursive: true, force: true }).catch(() => undefined);
}

function digest(/** @type {string} */ text) {
	return createHash("sha256").update(text).digest("hex");
}
