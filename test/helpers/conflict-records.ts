/** A builder of conflict records for UI tests: a plausible open stale-write conflict, with any field overridden. */
import type { ConflictRecord } from "../../src/core/conflicts";

export const RECORD_TIME = "2026-11-21T10:15:00.000Z";

export function conflictRecord(id: string, overrides: Partial<ConflictRecord> = {}): ConflictRecord {
	return {
		id,
		path: `notes/${id}.md`,
		reason: "stale",
		sentRevision: "sent",
		currentRevision: "current",
		proposedRevision: "proposed",
		backupPath: `notes/${id}.20261121-101500.bak.md`,
		agent: "claude-code",
		time: RECORD_TIME,
		status: "open",
		...overrides,
	};
}
