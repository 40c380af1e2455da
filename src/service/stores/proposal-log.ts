/** The proposal records, newest first, journaled like every record log (a snapshot plus appended changes). */
import {
	MAX_PROPOSAL_NOTE,
	PROPOSAL_STATUSES,
	type ProposalDecision,
	type ProposalRecord,
	type ProposalStatus,
} from "../../core/proposals";
import { RecordLog, type RecordChange } from "./record-log";

export type ProposalChange = RecordChange<ProposalRecord>;

export class ProposalLog extends RecordLog<ProposalRecord> {
	constructor(maxRecords = 1000) {
		super({ isRecord: isProposalRecord, settled: (record) => record.status !== "pending" }, maxRecords);
	}

	static fromSnapshot(snapshot: unknown, maxRecords?: number): ProposalLog {
		return new ProposalLog(maxRecords).load(snapshot);
	}

	/** Newest first. */
	list(filter: { status?: ProposalStatus; agent?: string; path?: string } = {}): ProposalRecord[] {
		return this.newestFirst(
			(record) =>
				(!filter.status || record.status === filter.status) &&
				(filter.agent === undefined || record.agent === filter.agent) &&
				(filter.path === undefined || record.path === filter.path),
		);
	}

	pendingCount(): number {
		return this.count((record) => record.status === "pending");
	}

	/** The person's decision; a record already decided is left as it is (returns undefined then, and for an unknown id). */
	decide(
		id: string,
		status: Exclude<ProposalStatus, "pending">,
		time: string,
		decision: ProposalDecision = {},
	): ProposalRecord | undefined {
		const record = this.records.get(id);
		if (!record || record.status !== "pending") return undefined;
		record.status = status;
		record.decidedAt = time;
		const note = decision.note?.trim();
		if (note) record.note = note.slice(0, MAX_PROPOSAL_NOTE);
		if (decision.acceptedRevision !== undefined) record.acceptedRevision = decision.acceptedRevision;
		this.changed(record);
		return record;
	}

	/** A moved note's proposals follow it, announced (the list and status bar show the new path). */
	rename(from: string, to: string): void {
		for (const record of this.follow(from, to)) this.emit(record);
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
