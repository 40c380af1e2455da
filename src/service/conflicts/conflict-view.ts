/**
 * A conflict record as agents are shown it. A record shows no note's content, so every revision in it is a change tag
 * (core/revision-tokens): an agent that followed a conflict to its resolution cannot write over the person's
 * resolution with `resolvedRevision` without reading what the person chose.
 */
import type { ConflictRecord } from "../../core/conflicts";
import { changeTagOf } from "../../core/revision-tokens";

export type AgentConflictView = Omit<
	ConflictRecord,
	"sentRevision" | "currentRevision" | "proposedRevision" | "resolvedRevision"
> & {
	sentRevision: string | null;
	currentRevision: string | null;
	proposedRevision: string;
	resolvedRevision?: string;
};

export function conflictForAgents(record: ConflictRecord): AgentConflictView {
	const tag = (revision: string | null) => (revision === null ? null : changeTagOf(revision));
	return {
		...record,
		sentRevision: tag(record.sentRevision),
		currentRevision: tag(record.currentRevision),
		proposedRevision: changeTagOf(record.proposedRevision),
		...(record.resolvedRevision !== undefined ? { resolvedRevision: changeTagOf(record.resolvedRevision) } : {}),
	};
}
