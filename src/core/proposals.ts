/**
 * Proposals: changes an agent may only propose (its key's `propose` scope), kept until the person accepts or rejects
 * them. One record each, persisted like conflict records (a snapshot plus appended changes), so a proposal outlives
 * restarts and crashes; the proposed text itself is a .bak note, byte for byte.
 */
import { compactUtc } from "./conflicts";

/**
 * `accepted`: written as the agent sent it; `accepted-with-edits`: the person changed it (or merged it with a note
 * that had moved on) before writing; `rejected`: nothing was written, `note` may say why.
 */
export type ProposalStatus = "pending" | "accepted" | "accepted-with-edits" | "rejected";

export const PROPOSAL_STATUSES: readonly ProposalStatus[] = ["pending", "accepted", "accepted-with-edits", "rejected"];

/** What the agent asked for: the whole note, text at its end, a patch of part of it, or exact text edits. */
export type ProposedOperation = "replace" | "append" | "patch" | "edit";

export interface ProposalRecord {
	id: string;
	path: string;
	/** The key's name. */
	agent: string;
	/** ISO 8601 time the proposal was made. */
	time: string;
	operation: ProposedOperation;
	/**
	 * The revision the proposal was made against: the note as it was then, or the older revision a replace said it was
	 * based on (when that is still kept). null: the note did not exist. Accepting over any other revision is a merge.
	 */
	baseRevision: string | null;
	/** The revision of the proposed text, which the .bak holds. */
	proposedRevision: string;
	/** The .bak note holding the proposed text, byte for byte. */
	backupPath: string;
	status: ProposalStatus;
	/** ISO 8601 time the person decided. */
	decidedAt?: string;
	/** The person's note to the agent (with a rejection, or an acceptance). */
	note?: string;
	/** The note's revision once accepted. */
	acceptedRevision?: string;
}

export interface ProposalDecision {
	note?: string;
	acceptedRevision?: string;
}

/** One change as it is saved: a record as it now stands, or the id of one that is gone. */
export type ProposalChange = { put: ProposalRecord } | { remove: string };

export interface ProposalSnapshot {
	version: 1;
	records: ProposalRecord[];
}

/** The longest note to the agent a decision keeps (a longer one is cut). */
export const MAX_PROPOSAL_NOTE = 2000;

export class ProposalLog {
	private readonly records = new Map<string, ProposalRecord>();
	private readonly listeners = new Set<(record: ProposalRecord) => void>();
	private readonly savers = new Set<(change: ProposalChange) => void>();

	constructor(private readonly maxRecords = 1000) {}

	add(record: ProposalRecord): void {
		this.records.set(record.id, record);
		this.save({ put: record });
		for (const id of this.trim()) this.save({ remove: id });
		this.emit(record);
	}

	get(id: string): ProposalRecord | undefined {
		return this.records.get(id);
	}

	/** Newest first. */
	list(filter: { status?: ProposalStatus; agent?: string; path?: string } = {}): ProposalRecord[] {
		const found: ProposalRecord[] = [];
		for (const record of this.records.values()) {
			if ((!filter.status || record.status === filter.status) && (filter.agent === undefined || record.agent === filter.agent) && (filter.path === undefined || record.path === filter.path)) found.push(record);
		}
		return found.reverse();
	}

	pendingCount(): number {
		let count = 0;
		for (const record of this.records.values()) if (record.status === "pending") count++;
		return count;
	}

	/** The person's decision; a record already decided is left as it is (returns undefined then, and for an unknown id). */
	decide(id: string, status: Exclude<ProposalStatus, "pending">, time: string, decision: ProposalDecision = {}): ProposalRecord | undefined {
		const record = this.records.get(id);
		if (!record || record.status !== "pending") return undefined;
		record.status = status;
		record.decidedAt = time;
		const note = decision.note?.trim();
		if (note) record.note = note.slice(0, MAX_PROPOSAL_NOTE);
		if (decision.acceptedRevision !== undefined) record.acceptedRevision = decision.acceptedRevision;
		this.save({ put: record });
		this.emit(record);
		return record;
	}

	/** A moved note's proposals follow it. */
	rename(from: string, to: string): void {
		for (const record of this.records.values()) {
			if (record.path !== from) continue;
			record.path = to;
			this.save({ put: record });
			this.emit(record);
		}
	}

	onChange(listener: (record: ProposalRecord) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Every change as it must be saved; replaying them in order over the snapshot they followed gives this log back. */
	onSave(saver: (change: ProposalChange) => void): () => void {
		this.savers.add(saver);
		return () => this.savers.delete(saver);
	}

	/** Applies saved changes (at load) without announcing them; replaying one a snapshot holds changes nothing. */
	replay(changes: readonly unknown[]): void {
		for (const change of changes) {
			const { put, remove } = (change ?? {}) as { put?: unknown; remove?: unknown };
			if (isProposalRecord(put)) this.records.set(put.id, put);
			else if (typeof remove === "string") this.records.delete(remove);
		}
		this.trim();
	}

	toSnapshot(): ProposalSnapshot {
		return { version: 1, records: [...this.records.values()] };
	}

	static fromSnapshot(snapshot: unknown, maxRecords?: number): ProposalLog {
		const log = new ProposalLog(maxRecords);
		const records = (snapshot as Partial<ProposalSnapshot> | null)?.records;
		if (!Array.isArray(records)) return log;
		for (const record of records) if (isProposalRecord(record)) log.records.set(record.id, record);
		return log;
	}

	/** Drops the oldest decided records first; pending ones only when nothing decided is left. Returns their ids. */
	private trim(): string[] {
		const dropped: string[] = [];
		for (const pass of ["decided", "any"] as const) {
			for (const [id, record] of this.records) {
				if (this.records.size <= this.maxRecords) return dropped;
				if (pass === "decided" && record.status === "pending") continue;
				this.records.delete(id);
				dropped.push(id);
			}
		}
		return dropped;
	}

	private save(change: ProposalChange): void {
		for (const saver of this.savers) saver(change);
	}

	private emit(record: ProposalRecord): void {
		for (const listener of this.listeners) listener(record);
	}
}

function isProposalRecord(value: unknown): value is ProposalRecord {
	const record = value as Partial<ProposalRecord> | null | undefined;
	return (
		typeof record?.id === "string" &&
		typeof record.path === "string" &&
		typeof record.agent === "string" &&
		typeof record.proposedRevision === "string" &&
		typeof record.backupPath === "string" &&
		PROPOSAL_STATUSES.includes(record.status as ProposalStatus)
	);
}

/** A sortable, unique proposal id: UTC time plus randomness. */
export function newProposalId(now: Date, random: string): string {
	return `p-${compactUtc(now)}-${random}`;
}
