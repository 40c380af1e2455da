/**
 * Who serves a vault right now. Each host leaves a small record while it runs (the headless host in its lock file,
 * the plugin in a marker in its own folder), so that a second host started on the same folder can refuse and name
 * the first: two hosts on one folder each keep their own conflict journal and history and overwrite each other's.
 */
import { randomBytes } from "crypto";
import { hostname } from "os";

/** The plugin's marker, in its folder (`<vault>/<config folder>/plugins/revision-guard/`). */
export const PLUGIN_MARKER = "running.json";

/** What holds a folder: a headless host, the Obsidian plugin, or a short command (a conflict dismissed). */
export type HolderKind = "headless" | "obsidian" | "command";

export interface HolderRecord {
	app: "revision-guard";
	kind: HolderKind;
	pid: number;
	/** The machine it runs on: a pid means nothing on another machine (a synced folder). */
	hostname: string;
	/** When it started (ISO 8601), for people. */
	started: string;
	/**
	 * When its process started, ms since the epoch. With the pid it tells the holder apart from a later process that
	 * was given the same pid after the holder died.
	 */
	processStart: number;
	/** Where it listens, when it does and that is known. */
	port: number | null;
	/** Random per record: a holder removes only its own record, never one that replaced it. */
	nonce: string;
	/** For a command, what it is doing ("conflicts dismiss"). */
	command?: string;
}

export function holderRecord(kind: HolderKind, port: number | null, command?: string): HolderRecord {
	return {
		app: "revision-guard",
		kind,
		pid: process.pid,
		hostname: hostname(),
		started: new Date().toISOString(),
		processStart: Math.round(Date.now() - process.uptime() * 1000),
		port,
		nonce: randomBytes(8).toString("hex"),
		...(command !== undefined ? { command } : {}),
	};
}

/** The record in a lock or marker file, or null when the text is not one (cut short, or not ours). */
export function parseHolder(text: string): HolderRecord | null {
	try {
		const value = JSON.parse(text) as Partial<HolderRecord> | null;
		if (value?.app !== "revision-guard" || typeof value.pid !== "number" || typeof value.hostname !== "string")
			return null;
		if (typeof value.started !== "string" || typeof value.processStart !== "number" || typeof value.nonce !== "string")
			return null;
		if (value.kind !== "headless" && value.kind !== "obsidian" && value.kind !== "command") return null;
		return { ...value, port: typeof value.port === "number" ? value.port : null } as HolderRecord;
	} catch {
		return null;
	}
}

/** "pid 1234 on this machine, started 2026-11-27T14:55:16.000Z, port 27125", as a person needs it to find the process. */
export function describeHolder(record: HolderRecord, thisMachine = hostname()): string {
	const where = record.hostname === thisMachine ? "on this machine" : `on the machine "${record.hostname}"`;
	const port = record.port !== null && record.port !== 0 ? `, port ${record.port}` : "";
	return `pid ${record.pid} ${where}, started ${record.started}${port}`;
}

/** The few adapter calls the marker needs (Obsidian's DataAdapter has them). */
export interface MarkerFiles {
	exists(path: string): Promise<boolean>;
	read(path: string): Promise<string>;
	write(path: string, data: string): Promise<void>;
	remove(path: string): Promise<void>;
}

/**
 * The plugin's marker: written when the plugin starts its host, removed when it stops (or Obsidian quits), so the
 * headless host refuses to serve the same vault beside it. Written through the vault adapter, in the plugin's folder.
 */
export class PluginMarker {
	private record: HolderRecord | null = null;

	constructor(
		private readonly files: MarkerFiles,
		/** The plugin's folder, e.g. `manifest.dir`. */
		private readonly folder: string,
	) {}

	get path(): string {
		return `${this.folder}/${PLUGIN_MARKER}`;
	}

	async write(port: number | null): Promise<void> {
		const record = holderRecord("obsidian", port);
		this.record = record;
		await this.files.write(this.path, JSON.stringify(record, null, "\t"));
	}

	/** Removes the marker if it is still this run's (another device's plugin may have synced its own over it). */
	async remove(): Promise<void> {
		const mine = this.record;
		this.record = null;
		if (!mine || !(await this.files.exists(this.path))) return;
		const found = parseHolder(await this.files.read(this.path));
		if (found?.nonce === mine.nonce) await this.files.remove(this.path);
	}
}
