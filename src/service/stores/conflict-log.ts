/** The conflict records, newest first, journaled like every record log (a snapshot plus appended changes). */
import type { ConflictRecord, ConflictStatus, Resolution } from "../../core/conflicts";
import { RecordLog, type RecordChange } from "./record-log";

export type ConflictChange = RecordChange<ConflictRecord>;

export class ConflictLog extends RecordLog<ConflictRecord> {
	constructor(maxRecords = 1000) {
		super({ isRecord, settled: (record) => record.status !== "open" }, maxRecords);
	}

	static fromSnapshot(snapshot: unknown, maxRecords?: number): ConflictLog {
		return new ConflictLog(maxRecords).load(snapshot);
	}

	/** Newest first. Every accepted write asks for its note's open conflicts, so this makes no copy of the log. */
	list(filter?: { status?: ConflictStatus; path?: string }): ConflictRecord[] {
		return this.newestFirst(
			(record) =>
				(!filter?.status || record.status === filter.status) && (!filter?.path || record.path === filter.path),
		);
	}

	openCount(): number {
		return this.count((record) => record.status === "open");
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
		this.changed(record);
		return record;
	}

	/** A moved note's conflicts follow it. */
	rename(from: string, to: string): void {
		this.follow(from, to);
	}
}

function isRecord(value: unknown): value is ConflictRecord {
	const record = value as Partial<ConflictRecord> | null | undefined;
	return typeof record?.id === "string" && typeof record.path === "string";
}
