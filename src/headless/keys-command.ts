/**
 * `keys list|add|revoke`: the headless host's agent keys, in `<folder>/.revision-guard/settings.json`. They may run
 * while a host serves the folder: the host writes settings.json only when it makes its first key, and follows the
 * file's keys while it runs (key-reload.ts), so an added key works and a revoked one stops working without a
 * restart. Rewrites of the file are serialized by a short lock, so two commands (or a command and a host making its
 * first key) never write over each other.
 */
import { join } from "path";
import { generateKey } from "../core/keys";
import { holderRecord } from "../host/running-marker";
import { DEFAULT_SETTINGS } from "../settings";
import { NodeStateStorage } from "../vault/node-state-storage";
import { commandFolder, splitCommandArgs, vaultOption } from "./command-args";
import { STATE_FOLDER } from "./folder-guard";
import { capitalized, holderWords, lockPath, SETTINGS_LOCK } from "./folder-holders";
import { takeLockWaiting } from "./folder-lock";
import { SETTINGS_FILE } from "./host-settings";

export interface KeysArgs {
	command: "keys";
	action: "list" | "add" | "revoke";
	/** The key's name (add, revoke). */
	name: string;
	vault: string;
}

type Write = (text: string) => void;

/** Longest key name: it is shown in conflict records, history and the host's log. */
const MAX_NAME = 64;

export function parseKeysArgs(argv: readonly string[]): KeysArgs | { command: "error"; message: string } {
	const args = splitCommandArgs(argv, ["--vault"]);
	if (typeof args === "string") return { command: "error", message: args };
	const [action, name, ...extra] = args.words;
	const vault = vaultOption(args);
	if (action === "list" && name === undefined) return { command: "keys", action, name: "", vault };
	if ((action === "add" || action === "revoke") && name !== undefined && extra.length === 0) {
		const problem = nameProblem(name);
		return problem ? { command: "error", message: problem } : { command: "keys", action, name: name.trim(), vault };
	}
	if (action === "add" || action === "revoke")
		return { command: "error", message: `keys ${action} needs one key name, e.g. keys ${action} claude-code.` };
	return { command: "error", message: "keys needs list, add NAME or revoke NAME." };
}

function nameProblem(name: string): string | null {
	const trimmed = name.trim();
	if (trimmed === "") return "A key name cannot be empty.";
	if (trimmed.length > MAX_NAME) return `A key name has at most ${MAX_NAME} characters.`;
	// eslint-disable-next-line no-control-regex -- control characters are what this refuses
	if (/[\u0000-\u001f\u007f]/.test(trimmed)) return "A key name cannot hold control characters (tabs, newlines).";
	return null;
}

export async function runKeys(args: KeysArgs, out: Write, err: Write): Promise<number> {
	const found = await commandFolder(args.vault);
	if ("problem" in found) return fail(err, found.problem, 2);
	const storage = new NodeStateStorage(join(found.folder, STATE_FOLDER));
	const settingsPath = join(found.folder, STATE_FOLDER, SETTINGS_FILE);
	if (args.action === "list") {
		const stored = await readSettings(storage, settingsPath);
		if (typeof stored === "string") return fail(err, stored);
		const keys = validKeys(stored);
		if (keys.length === 0)
			out(
				`${found.folder} has no agent keys yet. The host makes one named "agent" when it ` +
					`starts; or add one: keys add NAME.\n`,
			);
		for (const key of keys) out(`${key.name}\tcreated ${key.created}\n`);
		return 0;
	}
	const locked = await takeLockWaiting(
		lockPath(found.folder, SETTINGS_LOCK),
		holderRecord("command", null, `keys ${args.action}`),
		5_000,
	);
	if ("refused" in locked)
		return fail(
			err,
			`${capitalized(holderWords(locked.refused))} is changing ${settingsPath}; nothing ` +
				`was changed. Try again in a moment.`,
		);
	try {
		const stored = await readSettings(storage, settingsPath);
		if (typeof stored === "string") return fail(err, stored);
		const keys = Array.isArray(stored?.keys) ? (stored.keys as unknown[]) : [];
		const named = (entry: unknown) => (entry as { name?: unknown } | null)?.name === args.name;
		if (args.action === "add") {
			if (keys.some(named))
				return fail(
					err,
					`There is already a key named "${args.name}"; nothing was changed. Pick another name, ` +
						`or revoke that key first: keys revoke ${args.name}.`,
				);
			const key = { name: args.name, key: generateKey(), created: new Date().toISOString() };
			await save(storage, stored, [...keys, key]);
			out(
				`Added the key "${args.name}". Give it to the agent (it is printed only now; it is kept in ${settingsPath}, ` +
					`readable by you only):\n  ${key.key}\nA host serving this folder accepts it within ` +
					`a second; one started later reads it at start.\n`,
			);
			return 0;
		}
		if (!keys.some(named)) {
			const names = validKeys(stored).map((key) => key.name);
			return fail(
				err,
				`There is no key named "${args.name}"; nothing was changed. ${names.length > 0 ? `The keys are: ${names.join(", ")}.` : "There are no keys."}`,
			);
		}
		const left = keys.filter((entry) => !named(entry));
		await save(storage, stored, left);
		out(`Revoked the key "${args.name}": a host serving this folder refuses it within a second.\n`);
		if (validKeys({ keys: left }).length === 0)
			out(
				"No keys are left, so every agent is refused until you add one (keys add NAME); a " +
					"host started with none makes a new one.\n",
			);
		return 0;
	} finally {
		await locked.held.release();
	}
}

type Stored = Record<string, unknown> | null;

/** settings.json as it is on disk (null when there is none yet), or why it cannot be used. */
async function readSettings(storage: NodeStateStorage, path: string): Promise<Stored | string> {
	const text = await storage.read(SETTINGS_FILE);
	if (text === null) return null;
	try {
		const value = JSON.parse(text) as unknown;
		if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
	} catch {
		// Reported below, like a file that holds something other than an object.
	}
	return (
		`${path} is not valid settings JSON, so nothing was changed: it may hold keys agents ` +
		`use. Fix it by hand, or move it aside and start the host to make a fresh one.`
	);
}

/** Keys as the host reads them (withDefaults drops entries that are not keys). */
function validKeys(stored: Stored): { name: string; created: string }[] {
	const keys = Array.isArray(stored?.keys) ? (stored.keys as unknown[]) : [];
	return keys.flatMap((entry) => {
		const key = entry as { name?: unknown; key?: unknown; created?: unknown } | null;
		return typeof key?.name === "string" && typeof key.key === "string" && key.key.length >= 16
			? [{ name: key.name, created: typeof key.created === "string" ? key.created : "?" }]
			: [];
	});
}

/** Writes the keys back, everything else in the file as it was (a new file starts from the defaults, as a host's does). */
async function save(storage: NodeStateStorage, stored: Stored, keys: unknown[]): Promise<void> {
	await storage.write(SETTINGS_FILE, JSON.stringify({ ...(stored ?? DEFAULT_SETTINGS), keys }, null, "\t"));
	// An older version may have left the file world-readable; it holds keys.
	await storage.restrict(SETTINGS_FILE);
}

function fail(err: Write, message: string, code = 1): number {
	err(`${message}\n`);
	return code;
}
