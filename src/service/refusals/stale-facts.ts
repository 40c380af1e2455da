/**
 * What every entry point tells an agent about a stale refusal, beside its own wording and next steps: the revision
 * it sent, the one the note has now, the first page of the diff between them, and with `merge=auto` the attempted
 * merge (and the markdown rules that merged parts of it). One function, called once per refusal by its report
 * (refusal-report.ts), so no surface can drift from another.
 */
import type { MergeRule } from "../../core/merge";
import { changeTagOf, revisionField, tokenFor } from "../../core/revision-tokens";

import type { WriteOutcome } from "../write/write-request";

export type Refused = Extract<WriteOutcome, { kind: "refused" }>;
/** A refused outcome's facts, before (or without) its report. */
type RefusedFacts = Omit<Refused, "report">;

export interface StaleFacts {
	/** The token the client sent, as it sent it (a part token stays one). */
	sentRevision: string | null;
	/**
	 * The note's revision now, as a token only when this answer carries every change from what the client had seen to
	 * it (otherwise left out, with `changeTag`); null when the note is gone.
	 */
	currentRevision?: string | null;
	changeTag?: string;
	changes: string | null;
	mergePreview?: string;
	mergePreviewTruncated?: true;
	mergeRules?: MergeRule[];
}

export function staleFacts(outcome: RefusedFacts): StaleFacts {
	const { refusal, currentRevision, currentSight, changes, mergePreview } = outcome;
	return {
		sentRevision:
			refusal.reason === "stale" && refusal.sentRevision !== null
				? tokenFor(refusal.sentRevision, outcome.sentSight)
				: null,
		...currentFields({ currentRevision, currentSight }),
		changes: changes?.text ?? null,
		...(mergePreview !== null
			? {
					mergePreview: mergePreview.text,
					...(mergePreview.truncated ? { mergePreviewTruncated: true as const } : {}),
					...(mergePreview.rules ? { mergeRules: mergePreview.rules } : {}),
				}
			: {}),
	};
}

/**
 * The revisions a "next page of the diff" request names: `since` as the client sent it, `to` as a change tag (the
 * page pins the note as it was, and a link must never hand out a token the client was not shown the content of).
 */
export function nextPageRevisions(outcome: RefusedFacts): { since: string; to: string } | null {
	const { refusal, currentRevision } = outcome;
	if (refusal.reason !== "stale" || refusal.sentRevision === null || currentRevision === null) return null;
	return { since: tokenFor(refusal.sentRevision, outcome.sentSight), to: changeTagOf(currentRevision) };
}

/** The note's current revision as the client may be handed it: a token to retry with, or only its change tag. */
export function currentFields(outcome: Pick<Refused, "currentRevision" | "currentSight">): {
	currentRevision?: string | null;
	changeTag?: string;
} {
	return outcome.currentRevision === null
		? { currentRevision: null }
		: revisionField("currentRevision", outcome.currentRevision, outcome.currentSight);
}
