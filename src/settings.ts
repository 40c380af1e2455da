/** The plugin's settings: plain data with defaults, shared by the Obsidian plugin and the headless host. */
import { defaultPeriodSettings, PERIODS, type Period, type PeriodSettings } from "./core/periodic/periods";

export interface AgentKey {
	/** Shown in conflict records and revision history ("claude-code", "nightly-job"). */
	name: string;
	/** 256-bit random key, base64url. */
	key: string;
	created: string;
	/** Where the key's value is kept in Obsidian's secret storage (absent: it is kept in `data.json`). */
	secretId?: string;
	/**
	 * The key's scope (core/key-scope.ts): globs of the notes it may see (absent: `["**"]`), change (absent: `["**"]`)
	 * and only propose changes to (absent: none). Kept as stored, valid or not: a hand-edited list that is not a list
	 * of globs must reach the check that refuses to serve the key, never be replaced by a default.
	 */
	read?: unknown;
	write?: unknown;
	propose?: unknown;
}

export interface RevisionGuardSettings {
	port: number;
	/** Where the API listens. Anything but 127.0.0.1 exposes it beyond this computer; the settings tab warns. */
	bindAddress: string;
	keys: AgentKey[];
	/** Updates and deletes of existing notes must send If-Match. */
	requireToken: boolean;
	/** Folder for .bak notes; "" keeps each beside its note. */
	backupFolder: string;
	/** Cap for the retained merge bases, in megabytes. */
	baseStoreCapMB: number;
	/** Tokens the agent read longer ago than this are refused; 0 turns the window off. */
	readValidityMinutes: number;
	/** Largest request body accepted, in megabytes. */
	maxBodyMB: number;
	/** Largest diff or merge preview put in one answer, in kilobytes; longer ones are sent in pages. */
	maxDiffKB: number;
	/** Note types served and written (extensions without a dot). */
	noteExtensions: string[];
	/** Browser origins allowed to call the API (empty: no web page may). */
	allowedOrigins: string[];
	/** Agents may ask (`Prefer: merge=auto`) for a clean three-way merge instead of a 412. */
	allowAutoMerge: boolean;
	/**
	 * A save by another program that dropped edits saved before it, and merges cleanly with them, is merged at once
	 * (written as the person, through the guarded writer). Off: the merge is only offered. Either way the dropped
	 * text is kept as a .bak with a conflict record.
	 */
	autoMergeOutsideSaves: boolean;
	/** What happens when an agent's write is refused: open the merge modal, show a notice with a button, or only count it. */
	conflictAction: "open" | "notice" | "queue";
	/** After a conflict is resolved in the modal, keep its .bak note or move it to the trash. */
	backupAfterResolve: "keep" | "trash";
	/** A client that sends no If-Match is held to the revision it last read (its implicit token). */
	protectTokenlessClients: boolean;
	/** How many (client, note) reads are remembered for that; the least recently used go first. */
	readLedgerCap: number;
	/**
	 * How many of the latest agent writes stay undoable first: what each replaced and what it produced are kept in the
	 * base store before anything else (open conflicts' texts too), and evicted only when the cap leaves no choice.
	 */
	undoAgentWrites: number;
	/**
	 * Periodic notes (/periodic/{period}/) where nothing else names them: always headless; inside Obsidian, for a period
	 * that neither the Periodic Notes plugin nor (daily) Daily notes (or, weekly, the Calendar plugin) configures.
	 */
	periodicNotes: Record<Period, PeriodSettings>;
	/**
	 * Names of the keys allowed to run Obsidian commands (POST /commands/{id}/). Empty by default: a command can change
	 * notes with no revision at all, so a person turns it on per key, knowingly.
	 */
	commandKeys: string[];
}

export const DEFAULT_PORT = 27125;

/**
 * The backup folder a new Obsidian install starts with: one folder keeps .bak notes out of every other folder's
 * listings and queries, and the settings tab offers to add it to Obsidian's excluded files. (DEFAULT_SETTINGS keeps
 * "" for the headless host and for installs that already had settings: their .bak notes stay where they were.)
 */
export const NEW_INSTALL_BACKUP_FOLDER = "Agent backups";

export const DEFAULT_SETTINGS: RevisionGuardSettings = {
	port: DEFAULT_PORT,
	bindAddress: "127.0.0.1",
	keys: [],
	requireToken: true,
	backupFolder: "",
	baseStoreCapMB: 64,
	readValidityMinutes: 0,
	maxBodyMB: 16,
	maxDiffKB: 256,
	noteExtensions: ["md"],
	allowedOrigins: [],
	allowAutoMerge: true,
	autoMergeOutsideSaves: false,
	conflictAction: "notice",
	backupAfterResolve: "keep",
	protectTokenlessClients: true,
	readLedgerCap: 10_000,
	undoAgentWrites: 200,
	periodicNotes: defaultPeriodSettings(),
	commandKeys: [],
};

/** Fills in defaults for anything missing or of the wrong type (old or hand-edited data files). */
export function withDefaults(stored: unknown): RevisionGuardSettings {
	const input = (typeof stored === "object" && stored !== null ? stored : {}) as Partial<
		Record<keyof RevisionGuardSettings, unknown>
	>;
	const pick = <K extends keyof RevisionGuardSettings>(
		key: K,
		valid: (value: unknown) => boolean,
	): RevisionGuardSettings[K] =>
		(valid(input[key]) ? input[key] : structuredClone(DEFAULT_SETTINGS[key])) as RevisionGuardSettings[K];
	const isPort = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535;
	const isNonNegative = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0;
	return {
		port: pick("port", isPort),
		bindAddress: pick("bindAddress", (value) => typeof value === "string" && /^[0-9a-fA-F.:]+$/.test(value)),
		// A bad entry drops only itself: one hand-edited key must not cost the others.
		keys: Array.isArray(input.keys) ? input.keys.filter(isAgentKey).map((key) => ({ ...key })) : [],
		requireToken: pick("requireToken", (value) => typeof value === "boolean"),
		backupFolder: pick("backupFolder", (value) => typeof value === "string"),
		baseStoreCapMB: pick("baseStoreCapMB", (value) => isNonNegative(value) && (value as number) > 0),
		readValidityMinutes: pick("readValidityMinutes", isNonNegative),
		maxBodyMB: pick("maxBodyMB", (value) => isNonNegative(value) && (value as number) > 0),
		maxDiffKB: pick("maxDiffKB", (value) => isNonNegative(value) && (value as number) >= 1),
		noteExtensions: pick(
			"noteExtensions",
			(value) => Array.isArray(value) && value.length > 0 && value.every((ext) => typeof ext === "string"),
		),
		allowAutoMerge: pick("allowAutoMerge", (value) => typeof value === "boolean"),
		autoMergeOutsideSaves: pick("autoMergeOutsideSaves", (value) => typeof value === "boolean"),
		conflictAction: pick("conflictAction", (value) => value === "open" || value === "notice" || value === "queue"),
		backupAfterResolve: pick("backupAfterResolve", (value) => value === "keep" || value === "trash"),
		protectTokenlessClients: pick("protectTokenlessClients", (value) => typeof value === "boolean"),
		readLedgerCap: pick("readLedgerCap", (value) => Number.isInteger(value) && (value as number) >= 1),
		undoAgentWrites: pick("undoAgentWrites", (value) => Number.isInteger(value) && (value as number) >= 0),
		allowedOrigins: pick(
			"allowedOrigins",
			(value) => Array.isArray(value) && value.every((origin) => typeof origin === "string" && origin !== "*"),
		),
		periodicNotes: periodSettingsOf(input.periodicNotes),
		commandKeys: pick(
			"commandKeys",
			(value) => Array.isArray(value) && value.every((name) => typeof name === "string"),
		),
	};
}

/** Each period on its own: one hand-edited field falls back to its default without costing the others. */
function periodSettingsOf(stored: unknown): Record<Period, PeriodSettings> {
	const defaults = defaultPeriodSettings();
	const input = (typeof stored === "object" && stored !== null ? stored : {}) as Partial<
		Record<Period, Partial<Record<keyof PeriodSettings, unknown>>>
	>;
	for (const period of PERIODS) {
		const given = input[period];
		for (const field of ["folder", "format", "template"] as const) {
			const value = given?.[field];
			if (typeof value === "string" && (field !== "format" || value.trim() !== "")) defaults[period][field] = value;
		}
	}
	return defaults;
}

function isAgentKey(value: unknown): value is AgentKey {
	const key = value as Partial<AgentKey> | null;
	return typeof key?.name === "string" && typeof key.key === "string" && key.key.length >= 16;
}
