/** The headless host's settings file (`<vault>/.revision-guard/settings.json`): the same settings as the plugin. */
import { addFirstKey } from "../host/first-key";
import { DEFAULT_SETTINGS, withDefaults, type RevisionGuardSettings } from "../settings";
import type { StateStorage } from "../vault/gateway";

const SETTINGS_FILE = "settings.json";

/** Loads settings, generating and saving a key on first run. A key given on the command line is used as well. */
export async function loadHostSettings(storage: StateStorage, cliKey: string | null, port: number): Promise<RevisionGuardSettings> {
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
	if (cliKey !== null && !settings.keys.some((key) => key.key === cliKey)) {
		settings.keys.unshift({ name: "cli", key: cliKey, created: new Date().toISOString() });
	}
	return settings;
}

/** Writes settings.json: what was loaded and made, never a key given on the command line for this run. */
export async function saveHostSettings(storage: StateStorage, settings: RevisionGuardSettings, cliKey: string | null = null): Promise<void> {
	await storage.write(SETTINGS_FILE, JSON.stringify({ ...settings, keys: settings.keys.filter((key) => key.key !== cliKey) }, null, "\t"));
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
