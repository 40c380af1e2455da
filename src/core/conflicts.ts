/** Conflict records: one per refused write, persisted so a person (or the agent) can see and resolve it later. */
import { createHash } from "crypto";
import type { AgentTaken } from "./agent-outcome";
import { MAX_NAME_BYTES, truncateUtf8, utf8Length } from "./utf8";

export type ConflictStatus = "open" | "resolved" | "dismissed";

/**
 * Why a conflict was recorded. The first five refused an agent's write through our door. The last two are saves we
 * could not refuse, made by another program straight to the file (`source: "outside"`): `outside-save` dropped the
 * edits saved before it (the .bak holds what it replaced); `outside-over-typing` landed while the person had unsaved
 * typing in the note that it overlapped (the .bak holds the program's text, which the person's autosave replaces).
 */
export type ConflictReason =
	"stale" | "exists" | "read-expired" | "content-loss" | "note-in-use" | "outside-save" | "outside-over-typing";

export { ANOTHER_PROGRAM } from "./another-program";

/** Every reason, for schemas that list them. */
export const CONFLICT_REASONS: readonly ConflictReason[] = [
	"stale",
	"exists",
	"read-expired",
	"content-loss",
	"note-in-use",
	"outside-save",
	"outside-over-typing",
];

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
	/** The key that was refused; "another program" for a save made outside our door. */
	agent: string;
	/** "outside": a program saved the file directly (nothing was refused; see ConflictReason). Absent: our door. */
	source?: "outside";
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

export type ConflictListener = (record: ConflictRecord) => void;

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
