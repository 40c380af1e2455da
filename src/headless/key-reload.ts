/**
 * A running headless host follows the keys in settings.json, so `keys add` and `keys revoke` (or a hand edit) take
 * effect without a restart: a revoked key must stop working while the host runs. Only the keys are taken; the other
 * settings are read at start. The file is polled (a stat twice a second) rather than watched: the state folder is
 * replaced file by file with renames, which a poll sees on every file system, synced and network ones included.
 */
import { unwatchFile, watchFile, type Stats } from "fs";
import { readFile } from "fs/promises";
import { withDefaults, type AgentKey, type RevisionGuardSettings } from "../settings";
import { scopeProblems } from "../service/scopes/key-scopes";
import { withCliKey } from "./host-settings";

const POLL_MS = 500;

export interface KeyReloadHooks {
	/** A line for the person when the keys changed. */
	say: (line: string) => void;
	/** When settings.json cannot be read: the keys stay as they were. */
	warn: (line: string) => void;
}

/** Starts following `settingsPath`; returns the function that stops. */
export function followKeys(
	settingsPath: string,
	settings: RevisionGuardSettings,
	cliKey: string | null,
	hooks: KeyReloadHooks,
): () => void {
	let reading = Promise.resolve();
	const changed = (now: Stats, before: Stats) => {
		if (now.mtimeMs === before.mtimeMs && now.ino === before.ino && now.size === before.size) return;
		// One reload at a time, in order: the last one read is the file as it is now.
		reading = reading.then(() => reload(settingsPath, settings, cliKey, hooks));
	};
	watchFile(settingsPath, { interval: POLL_MS, persistent: false }, changed);
	return () => unwatchFile(settingsPath, changed);
}

async function reload(
	path: string,
	settings: RevisionGuardSettings,
	cliKey: string | null,
	hooks: KeyReloadHooks,
): Promise<void> {
	let stored: unknown;
	try {
		stored = JSON.parse(await readFile(path, "utf8"));
	} catch (error) {
		const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "it is gone" : "it cannot be read as JSON";
		hooks.warn(
			`settings.json changed, but ${why}; the host keeps the keys it had. Fix the file ` +
				`(or restart the host to make a new key).`,
		);
		return;
	}
	const all = withCliKey(withDefaults(stored).keys, cliKey);
	// A key whose lists are malformed is not served until they are fixed: never kept at its old scope, never widened.
	const problems = scopeProblems(all);
	const refused = new Set(problems.map((problem) => problem.key));
	const keys = all.filter((key) => !refused.has(key.name));
	if (same(keys, settings.keys)) return;
	settings.keys = keys;
	for (const problem of problems)
		hooks.warn(
			`settings.json: ${problem.message} The key "${problem.key}" is refused until its ${problem.field} field is fixed.`,
		);
	hooks.say(
		keys.length === 0
			? "Keys changed in settings.json: there are none now, so every agent request is refused until one is added."
			: `Keys changed in settings.json: accepting ${keys.map((key) => key.name).join(", ")}.`,
	);
}

/** Whether two key lists are the same keys with the same scopes (a change of scope takes effect like a new key). */
function same(a: readonly AgentKey[], b: readonly AgentKey[]): boolean {
	const text = (list: readonly AgentKey[]) =>
		JSON.stringify(list.map((key) => [key.name, key.key, key.read, key.write, key.propose]));
	return text(a) === text(b);
}
