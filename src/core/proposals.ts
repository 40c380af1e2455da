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

/** The longest note to the agent a decision keeps (a longer one is cut). */
export const MAX_PROPOSAL_NOTE = 2000;

/** A sortable, unique proposal id: UTC time plus randomness. */
export function newProposalId(now: Date, random: string): string {
	return `p-${compactUtc(now)}-${random}`;
}
