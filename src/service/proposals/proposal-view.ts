/**
 * A proposal as agents are shown it. A record shows no note's content, so every revision in it is a change tag
 * (core/revision-tokens): an agent that learns its proposal was accepted reads the note before writing over it.
 */
import type { ProposalRecord } from "../../core/proposals";
import { changeTagOf } from "../../core/revision-tokens";

export type AgentProposalView = Omit<ProposalRecord, "baseRevision" | "proposedRevision" | "acceptedRevision"> & {
	baseRevision: string | null;
	proposedRevision: string;
	acceptedRevision?: string;
};

export function proposalForAgents(record: ProposalRecord): AgentProposalView {
	return {
		...record,
		baseRevision: record.baseRevision === null ? null : changeTagOf(record.baseRevision),
		proposedRevision: changeTagOf(record.proposedRevision),
		...(record.acceptedRevision !== undefined ? { acceptedRevision: changeTagOf(record.acceptedRevision) } : {}),
	};
}
