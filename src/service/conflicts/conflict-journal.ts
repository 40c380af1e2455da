/**
 * Conflict records on storage: a snapshot (`conflicts.json`) plus a log of the changes since (`conflicts.jsonl`, one
 * JSON line per change). A change is appended and made durable before the refusal it belongs to is answered; changes
 * that arrive while an append is in flight are written together by the next one (one append and one fsync for all).
 * When the log grows past the snapshot's size, the snapshot is rewritten and the log removed. There is no moment
 * where a crash loses a record: the snapshot is replaced atomically and already holds every line of the log when the
 * log goes. Each line carries a sequence number and the snapshot the last one it holds, so a line left over from
 * before a snapshot (a crash before the log's removal) is skipped on load and never brings an older state back.
 */
import type { StateStorage } from "../../vault/gateway";

export const CONFLICTS_FILE = "conflicts.json";
export const CONFLICT_LOG_FILE = "conflicts.jsonl";

/** Which files a journal keeps: conflict records here, proposals (proposal-journal.ts) in files of their own. */
export interface JournalFiles {
	snapshot: string;
	log: string;
}

export const CONFLICT_FILES: JournalFiles = { snapshot: CONFLICTS_FILE, log: CONFLICT_LOG_FILE };

/** One change to a journal's records: a record as it now stands, or the id of one that is gone. */
export type JournalChange = { put: object } | { remove: string };

/** The log is compacted once it is larger than this or than the snapshot, whichever is more. */
const MIN_COMPACT_BYTES = 64 * 1024;

export interface SavedConflicts {
	snapshot: unknown;
	/** The log's changes, in order, to replay over the snapshot. */
	changes: unknown[];
	/** Whether the log held anything (the journal then compacts it at once). */
	logged: boolean;
	snapshotBytes: number;
	/** The last sequence number the snapshot or the log holds (new lines continue after it). */
	lastSeq: number;
}

/** Where a snapshot says which lines it already holds (older snapshots have none: every line is replayed). */
const SNAPSHOT_SEQ = "journalSeq";

/**
 * Reads the snapshot and the log. A last line cut short (a crash mid-append) is skipped: its refusal was never
 * answered. A damaged line before it is skipped too, and the whole log is kept aside as evidence, like any damaged
 * state file; every line that parses is still replayed.
 */
export async function loadConflicts(
	storage: StateStorage,
	parseJson: (name: string, text: string) => Promise<unknown>,
	files: JournalFiles = CONFLICT_FILES,
): Promise<SavedConflicts> {
	const [snapshotText, log] = await Promise.all([storage.read(files.snapshot), storage.read(files.log)]);
	const snapshot = snapshotText === null ? null : await parseJson(files.snapshot, snapshotText);
	const held = snapshotSeq(snapshot);
	let lastSeq = held;
	const changes: unknown[] = [];
	let damaged = false;
	const lines = (log ?? "").split("\n");
	lines.forEach((line, index) => {
		if (line.trim() === "") return;
		const change = parseChange(line);
		// Only the last line can be torn by a crash; a bad line anywhere else is damage worth keeping.
		if (change === null) damaged ||= index < lines.length - 1;
		// A line the snapshot already holds is skipped: replayed, it could undo a later change the snapshot holds.
		else if (change.seq === undefined || change.seq > held) {
			changes.push(change);
			lastSeq = Math.max(lastSeq, change.seq ?? 0);
		}
	});
	if (damaged && log !== null) await storage.write(`${files.log}.damaged-${Date.now()}`, log);
	return { snapshot, changes, logged: (log ?? "").trim() !== "", snapshotBytes: snapshotText?.length ?? 0, lastSeq };
}

function snapshotSeq(snapshot: unknown): number {
	const seq = (snapshot as Record<string, unknown> | null)?.[SNAPSHOT_SEQ];
	return typeof seq === "number" && Number.isSafeInteger(seq) ? seq : 0;
}

/** One saved change, or null when the line is not one (cut short, or damaged). */
function parseChange(line: string): { seq?: number } | null {
	try {
		const change = JSON.parse(line) as { put?: unknown; remove?: unknown; seq?: unknown } | null;
		if (
			typeof change !== "object" ||
			change === null ||
			(typeof change.put !== "object" && typeof change.remove !== "string")
		)
			return null;
		if (change.seq !== undefined && !(typeof change.seq === "number" && Number.isSafeInteger(change.seq))) return null;
		return change as { seq?: number };
	} catch {
		return null;
	}
}

export class ConflictJournal {
	private pending: string[] = [];
	/** The commit that will write the pending lines, once scheduled and until it starts. */
	private scheduled: Promise<void> | null = null;
	/** The last commit scheduled: once it is done, every change recorded so far is durable. */
	private latest: Promise<void> = Promise.resolve();
	/** Commits run one at a time, in order (never interleaved). */
	private tail: Promise<void> = Promise.resolve();
	private logBytes = 0;
	/**
	 * Set while the log may end in half a line (a failed append, or a log found at load): nothing is appended to it
	 * then, the next commit rewrites the snapshot and removes the log instead.
	 */
	private compactionDue: boolean;
	private snapshotBytes: number;
	/** The last sequence number given to a change (a snapshot holds every change up to the number it was taken at). */
	private seq: number;

	constructor(
		private readonly storage: StateStorage,
		private readonly snapshot: () => unknown,
		saved: Pick<SavedConflicts, "logged" | "snapshotBytes" | "lastSeq"> = {
			logged: false,
			snapshotBytes: 0,
			lastSeq: 0,
		},
		private readonly files: JournalFiles = CONFLICT_FILES,
	) {
		this.compactionDue = saved.logged;
		this.snapshotBytes = saved.snapshotBytes;
		this.seq = saved.lastSeq;
	}

	/** Queues one change (the log's save listener calls this synchronously, at the change). */
	record(change: JournalChange): void {
		this.pending.push(JSON.stringify({ seq: ++this.seq, ...change }) + "\n");
		if (this.scheduled) return;
		this.scheduled = this.enqueue(() => this.commitPending());
		this.latest = this.scheduled;
	}

	/** Resolves once every change recorded so far is durable (rejects when saving it failed). */
	saved(): Promise<void> {
		return this.latest;
	}

	/** Rewrites the snapshot and removes the log, after any pending commit (load, shutdown, tests). */
	compact(): Promise<void> {
		this.latest = this.enqueue(() => this.writeSnapshot());
		return this.latest;
	}

	private enqueue(step: () => Promise<void>): Promise<void> {
		const run = this.tail.then(step);
		this.tail = run.catch(() => undefined);
		// Callers that do not wait (a status change) must not leave an unhandled rejection behind.
		run.catch(() => undefined);
		return run;
	}

	private async commitPending(): Promise<void> {
		const lines = this.pending;
		this.pending = [];
		this.scheduled = null;
		const text = lines.join("");
		// The snapshot holds these changes already (they were made before it is taken), so it can stand for them.
		if (this.compactionDue || this.logBytes + text.length > Math.max(MIN_COMPACT_BYTES, this.snapshotBytes))
			return this.writeSnapshot();
		try {
			await this.storage.append(this.files.log, text);
			this.logBytes += text.length;
		} catch {
			await this.writeSnapshot();
		}
	}

	private async writeSnapshot(): Promise<void> {
		this.compactionDue = true;
		// Taken now, it holds every change recorded so far, pending ones included: it says so by their last number.
		const text = JSON.stringify({ ...(this.snapshot() as object), [SNAPSHOT_SEQ]: this.seq });
		await this.storage.write(this.files.snapshot, text);
		this.snapshotBytes = text.length;
		// Until the log is gone, a crash replays it over this snapshot, which changes nothing.
		await this.storage.remove(this.files.log);
		this.logBytes = 0;
		this.compactionDue = false;
	}
}
