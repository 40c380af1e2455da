/** Conflict records: one per refused write, persisted so a person (or the agent) can see and resolve it later. */
import { createHash } from "crypto";
import type { AgentTaken } from "./agent-outcome";
import { MAX_NAME_BYTES, truncateUtf8, utf8Length } from "./utf8";

export type ConflictStatus = "open" | "resolved" | "dismissed";

export type ConflictReason = "stale" | "exists" | "read-expired" | "content-loss" | "note-in-use";

export interface ConflictRecord {
	id: string;
	path: string;
	reason: ConflictReason;
	/** The revision the agent sent in If-Match (null when it sent none). */
	sentRevision: string | null;
	/** The note's revision when the write was refused (null when the note did not exist). */
	currentRevision: string | null;
	/** The revision of the refused body itself, which the .bak holds. */
	proposedRevision: string;
	/** Where the refused body was kept; null only if keeping it failed. */
	backupPath: string | null;
	agent: string;
	/** ISO 8601 time of the refusal. */
	time: string;
	status: ConflictStatus;
	resolvedAt?: string;
	/** The note's revision once resolved. */
	resolvedRevision?: string;
	/** How much of the agent's proposal the resolution kept. */
	agentTaken?: AgentTaken;
	/** Who resolved it: "you" (the merge modal) or the key name that wrote the resolution. */
	resolvedBy?: string;
}

export interface Resolution {
	resolvedRevision?: string;
	agentTaken?: AgentTaken;
	resolvedBy?: string;
}

export interface ConflictSnapshot {
	version: 1;
	records: ConflictRecord[];
}

export type ConflictListener = (record: ConflictRecord) => void;

/** One change to the log as it is saved: a record as it now stands, or the id of one that is gone. */
export type ConflictChange = { put: ConflictRecord } | { remove: string };

export class ConflictLog {
	private readonly records = new Map<string, ConflictRecord>();
	private readonly listeners = new Set<ConflictListener>();
	private readonly savers = new Set<(change: ConflictChange) => void>();

	constructor(private readonly maxRecords = 1000) {}

	add(record: ConflictRecord): void {
		this.records.set(record.id, record);
		this.save({ put: record });
		for (const id of this.trim()) this.save({ remove: id });
		this.emit(record);
	}

	get(id: string): ConflictRecord | undefined {
		return this.records.get(id);
	}

	/** Newest first. */
	list(filter?: { status?: ConflictStatus; path?: string }): ConflictRecord[] {
		// One pass with no copies of the whole log: every accepted write asks for its note's open conflicts.
		const found: ConflictRecord[] = [];
		for (const record of this.records.values()) {
			if ((!filter?.status || record.status === filter.status) && (!filter?.path || record.path === filter.path)) found.push(record);
		}
		return found.reverse();
	}

	openCount(): number {
		let count = 0;
		for (const record of this.records.values()) if (record.status === "open") count++;
		return count;
	}

	setStatus(id: string, status: ConflictStatus, time: string, resolution: Resolution = {}): ConflictRecord | undefined {
		const record = this.records.get(id);
		if (!record) return undefined;
		record.status = status;
		delete record.resolvedAt;
		delete record.resolvedRevision;
		delete record.agentTaken;
		delete record.resolvedBy;
		if (status !== "open") {
			record.resolvedAt = time;
			if (resolution.resolvedRevision !== undefined) record.resolvedRevision = resolution.resolvedRevision;
			if (resolution.agentTaken !== undefined) record.agentTaken = resolution.agentTaken;
			if (resolution.resolvedBy !== undefined) record.resolvedBy = resolution.resolvedBy;
		}
		this.save({ put: record });
		this.emit(record);
		return record;
	}

	/** A moved note's conflicts follow it. */
	rename(from: string, to: string): void {
		for (const record of this.records.values()) {
			if (record.path !== from) continue;
			record.path = to;
			this.save({ put: record });
		}
	}

	onChange(listener: ConflictListener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/**
	 * Subscribes to every change as it must be saved (additions, status changes, renames, and records dropped to
	 * stay within the cap). Replaying them in order over the snapshot they followed gives this log back.
	 */
	onSave(saver: (change: ConflictChange) => void): () => void {
		this.savers.add(saver);
		return () => this.savers.delete(saver);
	}

	/**
	 * Applies saved changes (at load) without announcing them. Replaying changes that a snapshot already holds
	 * changes nothing: each one sets a record or removes it, whatever was there.
	 */
	replay(changes: readonly unknown[]): void {
		for (const change of changes) {
			const { put, remove } = (change ?? {}) as { put?: Partial<ConflictRecord>; remove?: unknown };
			if (isRecord(put)) this.records.set(put.id, put);
			else if (typeof remove === "string") this.records.delete(remove);
		}
		this.trim();
	}

	toSnapshot(): ConflictSnapshot {
		return { version: 1, records: [...this.records.values()] };
	}

	static fromSnapshot(snapshot: unknown, maxRecords?: number): ConflictLog {
		const log = new ConflictLog(maxRecords);
		const records = (snapshot as Partial<ConflictSnapshot> | null)?.records;
		if (!Array.isArray(records)) return log;
		for (const record of records) {
			if (isRecord(record)) log.records.set(record.id, record);
		}
		return log;
	}

	/** Drops the oldest settled records first; open ones are kept while any settled one remains. Returns their ids. */
	private trim(): string[] {
		const dropped: string[] = [];
		const drop = (id: string) => {
			this.records.delete(id);
			dropped.push(id);
		};
		for (const [id, record] of this.records) {
			if (this.records.size <= this.maxRecords) return dropped;
			if (record.status !== "open") drop(id);
		}
		for (const [id] of this.records) {
			if (this.records.size <= this.maxRecords) return dropped;
			drop(id);
		}
		return dropped;
	}

	private save(change: ConflictChange): void {
		for (const saver of this.savers) saver(change);
	}

	private emit(record: ConflictRecord): void {
		for (const listener of this.listeners) listener(record);
	}
}

function isRecord(value: unknown): value is ConflictRecord {
	const record = value as Partial<ConflictRecord> | null | undefined;
	return typeof record?.id === "string" && typeof record.path === "string";
}

/** A sortable, unique conflict id: UTC time plus randomness. */
export function newConflictId(now: Date, random: string): string {
	return `c-${compactUtc(now)}-${random}`;
}

/** `yyyyMMdd-HHmmss` in UTC, as used in .bak names. */
export function compactUtc(date: Date): string {
	const iso = date.toISOString();
	return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/** What every .bak note's name ends with. */
export const BACKUP_SUFFIX = ".bak.md";

/**
 * Whether a note is one of our backups: named like one, or anywhere inside the backup folder. Agents may read
 * these but never change or delete them; the person can.
 */
export function isBackupPath(path: string, backupFolder: string): boolean {
	if (path.toLowerCase().endsWith(BACKUP_SUFFIX)) return true;
	const folder = backupFolder.replace(/^\/+|\/+$/g, "").toLowerCase();
	return folder !== "" && path.toLowerCase().startsWith(folder + "/");
}

/**
 * `notes/Plan.md` → `notes/Plan.20261121-101500.bak.md`, with `-2`, `-3`… for uniqueness. With a backup folder set,
 * the note's folders are mirrored inside it (`Backups/notes/Plan.….bak.md`) so same-named notes stay apart.
 */
export function backupPathFor(notePath: string, date: Date, folder: string, attempt: number): string {
	const slash = notePath.lastIndexOf("/");
	const noteDir = slash === -1 ? "" : notePath.slice(0, slash);
	const base = folder.replace(/^\/+|\/+$/g, "");
	const dir = [base, noteDir].filter((part) => part !== "").join("/");
	const file = slash === -1 ? notePath : notePath.slice(slash + 1);
	const dot = file.lastIndexOf(".");
	const stem = dot > 0 ? file.slice(0, dot) : file;
	const unique = attempt > 1 ? `-${attempt}` : "";
	const name = fitName(stem, `.${compactUtc(date)}${unique}${BACKUP_SUFFIX}`);
	return dir === "" ? name : `${dir}/${name}`;
}

/**
 * `stem + tail`, with the stem shortened when the whole would pass the file system's name limit. A shortened stem
 * ends in `~` and a hash of the full stem, so two long names that share a start still get different backups.
 */
export function fitName(stem: string, tail: string): string {
	if (utf8Length(stem) + utf8Length(tail) <= MAX_NAME_BYTES) return stem + tail;
	const mark = "~" + createHash("sha256").update(stem).digest("hex").slice(0, 8);
	return truncateUtf8(stem, MAX_NAME_BYTES - utf8Length(tail) - mark.length) + mark + tail;
}
