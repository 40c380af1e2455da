/**
 * What every entry point tells an agent about a stale refusal, beside its own wording and next steps: the revision
 * it sent, the one the note has now, the first page of the diff between them, and with `merge=auto` the attempted
 * merge (and the markdown rules that merged parts of it). One function, so REST and the CLI cannot drift apart.
 */
import type { MergeRule } from "../core/merge";
import type { WriteOutcome } from "./write-request";

export type Refused = Extract<WriteOutcome, { kind: "refused" }>;

export interface StaleFacts {
	sentRevision: string | null;
	currentRevision: string | null;
	changes: string | null;
	mergePreview?: string;
	mergePreviewTruncated?: true;
	mergeRules?: MergeRule[];
}

export function staleFacts(outcome: Refused): StaleFacts {
	const { refusal, currentRevision, changes, mergePreview } = outcome;
	return {
		sentRevision: refusal.reason === "stale" ? refusal.sentRevision : null,
		currentRevision,
		changes: changes?.text ?? null,
		...(mergePreview !== null
			? { mergePreview: mergePreview.text, ...(mergePreview.truncated ? { mergePreviewTruncated: true as const } : {}), ...(mergePreview.rules ? { mergeRules: mergePreview.rules } : {}) }
			: {}),
	};
}
