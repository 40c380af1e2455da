/**
 * `conflicts list|dismiss`: the folder's conflict records without a running host.
 *
 * The conflict journal must never be written by two processes at once (two writers number their lines alike, and
 * one's snapshot drops the other's records), so `dismiss` takes the folder's lock, as a host does, and refuses while
 * a host holds it. It does not go through the running host instead because the API has no route for a person's
 * dismissal: agents must not dismiss the conflicts they caused. A running host shows its conflicts to anyone with a
 * key at GET /conflicts. `list` only reads, so it works beside a running host too: it reads the log before the
 * snapshot, and the log's sequence numbers make a compaction between the two reads lose nothing.
 */
import { join } from "path";
import { type ConflictRecord, type ConflictStatus } from "../core/conflicts";
import { ConflictLog } from "../service/stores/conflict-log";
import { holderRecord } from "../host/running-marker";
import {
	CONFLICT_FILES,
	ConflictJournal,
	loadConflicts,
	type JournalFiles,
	type SavedConflicts,
} from "../service/conflicts/conflict-journal";
import type { StateStorage } from "../vault/gateway";
import { NodeStateStorage } from "../vault/node-state-storage";
import { commandFolder, splitCommandArgs, vaultOption } from "./command-args";
import { STATE_FOLDER } from "./folder-guard";
import { capitalized, holderWords, lockPath, takeoverNote } from "./folder-holders";
import { takeLock } from "./folder-lock";

export interface ConflictsArgs {
	command: "conflicts";
	action: "list" | "dismiss";
	/** The conflict to dismiss. */
	id: string;
	status: ConflictStatus | null;
	json: boolean;
	vault: string;
}

type Write = (text: string) => void;

const STATUSES: readonly ConflictStatus[] = ["open", "resolved", "dismissed"];

export function parseConflictsArgs(argv: readonly string[]): ConflictsArgs | { command: "error"; message: string } {
	const args = splitCommandArgs(argv, ["--vault", "--status"], ["--json"]);
	if (typeof args === "string") return { command: "error", message: args };
	const [action, id, ...extra] = args.words;
	const status = args.options.get("--status");
	if (status !== undefined && !STATUSES.includes(status as ConflictStatus))
		return { command: "error", message: `--status must be one of ${STATUSES.join(", ")}.` };
	const common = {
		command: "conflicts" as const,
		status: (status as ConflictStatus | undefined) ?? null,
		json: args.options.has("--json"),
		vault: vaultOption(args),
	};
	if (action === "list" && id === undefined) return { ...common, action, id: "" };
	if (action === "dismiss" && id !== undefined && extra.length === 0) {
		if (common.status !== null || common.json)
			return { command: "error", message: "conflicts dismiss takes only an id (and --vault)." };
		return { ...common, action, id };
	}
	if (action === "dismiss")
		return { command: "error", message: "conflicts dismiss needs one conflict id (conflicts list shows them)." };
	return { command: "error", message: "conflicts needs list or dismiss ID." };
}

export async function runConflicts(args: ConflictsArgs, out: Write, err: Write): Promise<number> {
	const found = await commandFolder(args.vault);
	if ("problem" in found) return fail(err, found.problem, 2);
	const storage = new NodeStateStorage(join(found.folder, STATE_FOLDER));
	return args.action === "list" ? list(args, storage, out, err) : dismiss(args, found.folder, storage, out, err);
}

async function list(args: ConflictsArgs, storage: StateStorage, out: Write, err: Write): Promise<number> {
	const log = await readConflictLog(storage, (problem) => err(`${problem}\n`));
	const records = log.list(args.status ? { status: args.status } : undefined);
	if (args.json) {
		out(`${JSON.stringify({ conflicts: records }, null, 2)}\n`);
		return 0;
	}
	if (records.length === 0) out(`No ${args.status ? `${args.status} ` : ""}conflicts.\n`);
	for (const record of records) out(`${describe(record)}\n`);
	return 0;
}

async function dismiss(
	args: ConflictsArgs,
	folder: string,
	storage: StateStorage,
	out: Write,
	err: Write,
): Promise<number> {
	const locked = await takeLock(lockPath(folder), holderRecord("command", null, "conflicts dismiss"));
	if ("refused" in locked) {
		const host =
			locked.refused.holder?.kind === "command"
				? ""
				: " Stop it first (Ctrl+C in its terminal), then run this again; meanwhile its conflicts " +
					"are listed at GET /conflicts.";
		return fail(
			err,
			`${capitalized(holderWords(locked.refused))} holds ${folder}, and conflict records ` +
				`are written by one process at a time, so nothing was changed.${host}`,
		);
	}
	const lock = locked.held;
	try {
		if (lock.tookOver !== null) err(`${takeoverNote(lock.tookOver, lock.path)}\n`);
		const damaged: string[] = [];
		const saved = await loadSaved(storage, (problem) => damaged.push(problem), true);
		// A snapshot that cannot be read would be replaced by one holding only the log's records: leave it to the host,
		// which keeps a damaged file aside before it starts afresh.
		if (damaged.length > 0)
			return fail(
				err,
				`${damaged.join(" ")} Nothing was changed; start the host once (it keeps the damaged ` +
					`file aside), then dismiss again.`,
			);
		const log = ConflictLog.fromSnapshot(saved.snapshot);
		log.replay(saved.changes);
		const record = log.get(args.id);
		if (!record)
			return fail(err, `There is no conflict "${args.id}"; nothing was changed. List them with: conflicts list.`);
		if (record.status !== "open") {
			out(`Conflict ${args.id} is already ${record.status}; nothing was changed.\n`);
			return 0;
		}
		const journal = new ConflictJournal(storage, () => log.toSnapshot(), saved);
		log.onSave((change) => journal.record(change));
		log.setStatus(args.id, "dismissed", new Date().toISOString());
		await journal.saved();
		const kept = record.backupPath ? ` The agent's text stays in ${record.backupPath}.` : "";
		out(`Dismissed conflict ${args.id} on ${record.path}: the note stays as it is.${kept}\n`);
		return 0;
	} finally {
		await lock.release();
	}
}

/** The records as a host would load them, without writing anything. */
async function readConflictLog(storage: StateStorage, warn: (problem: string) => void): Promise<ConflictLog> {
	const saved = await loadSaved(storage, warn);
	const log = ConflictLog.fromSnapshot(saved.snapshot);
	log.replay(saved.changes);
	return log;
}

/**
 * Reads the log, then the snapshot (a host may compact meanwhile: the newer snapshot then says which of the lines
 * read it holds), and hands both to the journal's own loader (conflicts' files, or proposals' with `files`). It writes only the copy of a damaged log it keeps as
 * evidence, and only for a command that holds the lock (`keepDamaged`): the dismissal's compaction removes the log.
 */
export async function loadSaved(
	storage: StateStorage,
	damaged: (problem: string) => void,
	keepDamaged = false,
	files: JournalFiles = CONFLICT_FILES,
): Promise<SavedConflicts> {
	const logText = await storage.read(files.log);
	const snapshotText = await storage.read(files.snapshot);
	const asRead: StateStorage = {
		read: async (name) => (name === files.snapshot ? snapshotText : name === files.log ? logText : null),
		write: (name, content) => (keepDamaged ? storage.write(name, content) : Promise.resolve()),
		append: async () => undefined,
		remove: async () => undefined,
	};
	return loadConflicts(
		asRead,
		async (name, text) => {
			try {
				return JSON.parse(text) as unknown;
			} catch {
				damaged(`${join(STATE_FOLDER, name)} cannot be read as JSON; its records are not shown.`);
				return null;
			}
		},
		files,
	);
}

function describe(record: ConflictRecord): string {
	const kept = record.backupPath ? `kept in ${record.backupPath}` : "its text could not be kept";
	const settled =
		record.status === "open" ? "" : ` (${record.status}${record.resolvedAt ? ` ${record.resolvedAt}` : ""})`;
	return `${record.id}  ${record.status}  ${record.time}  ${record.path}  from ${record.agent}: ${record.reason}, ${kept}${settled}`;
}

function fail(err: Write, message: string, code = 1): number {
	err(`${message}\n`);
	return code;
}
