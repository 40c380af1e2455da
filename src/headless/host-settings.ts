/** The headless host's settings file (`<vault>/.revision-guard/settings.json`): the same settings as the plugin. */
import { addFirstKey } from "../host/first-key";
import { DEFAULT_SETTINGS, withDefaults, type AgentKey, type RevisionGuardSettings } from "../settings";
import type { StateStorage } from "../vault/gateway";

export const SETTINGS_FILE = "settings.json";

/** Loads settings, generating and saving a key on first run. A key given on the command line is used as well. */
export async function loadHostSettings(
	storage: StateStorage,
	cliKey: string | null,
	port: number,
): Promise<RevisionGuardSettings> {
	const text = await storage.read(SETTINGS_FILE);
	// The file holds the keys: private to this user, even if an older version wrote it world-readable.
	if (text !== null) await storage.restrict?.(SETTINGS_FILE);
	let stored: unknown = null;
	try {
		stored = text === null ? null : (JSON.parse(text) as unknown);
	} catch {
		// A damaged file (a bad hand edit) is kept beside, never silently replaced: it may hold keys agents use.
		await storage.write(`${SETTINGS_FILE}.damaged-${Date.now()}`, text ?? "");
		stored = null;
	}
	const settings = withDefaults(stored);
	if (addFirstKey(settings)) await saveHostSettings(storage, settings);
	settings.port = port;
	settings.keys = withCliKey(settings.keys, cliKey);
	return settings;
}

/** The keys a host accepts: those of settings.json, and first a key given on the command line, if it is not one of them. */
export function withCliKey(keys: AgentKey[], cliKey: string | null): AgentKey[] {
	if (cliKey === null || keys.some((key) => key.key === cliKey)) return keys;
	return [{ name: "cli", key: cliKey, created: new Date().toISOString() }, ...keys];
}

/** Writes settings.json: what was loaded and made, never a key given on the command line for this run. */
export async function saveHostSettings(
	storage: StateStorage,
	settings: RevisionGuardSettings,
	cliKey: string | null = null,
): Promise<void> {
	await storage.write(
		SETTINGS_FILE,
		JSON.stringify({ ...settings, keys: settings.keys.filter((key) => key.key !== cliKey) }, null, "\t"),
	);
}

/**
 * The address the host will listen on, read without changing anything (the port is held before anything is
 * created): the default when the file is missing or damaged, as loadHostSettings will then decide too.
 */
export async function peekBindAddress(storage: StateStorage): Promise<string> {
	const text = await storage.read(SETTINGS_FILE).catch(() => null);
	try {
		return withDefaults(text === null ? null : JSON.parse(text)).bindAddress;
	} catch {
		return DEFAULT_SETTINGS.bindAddress;
	}
}
