/**
 * What every entry point tells a client about a refused move or copy, beside its own wording: which note the refusal
 * is about, and that note's revision now, as a change tag only (neither note's content was shown). One function, so
 * REST and MCP cannot drift apart.
 */
import { relocationCode, type RefusalCode } from "../../core/refusal-codes";
import { changeTagOf } from "../../core/revision-tokens";
import type { RelocationRefused } from "./move-request";

export interface RelocationFacts {
	/** The refusal's code, from the one list (core/refusal-codes.ts): REST's problem type says the same. */
	error: RefusalCode;
	/** Which note the refusal is about: the one moved or copied, or the one at the destination. */
	side: "source" | "destination";
	path: string;
	/** That note's change tag now; absent (with `currentRevision: null`) when it is gone. */
	changeTag?: string;
	currentRevision?: null;
	sentToken?: "change-tag" | "part-token";
	lastReadPart?: true;
	implicitRevision?: true;
	destinationTrashed?: true;
}

export function relocationFacts(outcome: RelocationRefused): RelocationFacts {
	const { refusal } = outcome;
	return {
		error: relocationCode(refusal),
		side: outcome.side,
		path: outcome.path,
		...(outcome.currentRevision === null
			? { currentRevision: null }
			: { changeTag: changeTagOf(outcome.currentRevision) }),
		...(refusal.reason === "token-required" && refusal.sent ? { sentToken: refusal.sent } : {}),
		...(refusal.reason === "token-required" && refusal.lastReadPart ? { lastReadPart: true as const } : {}),
		...(outcome.implicit ? { implicitRevision: true as const } : {}),
		...(outcome.destinationTrashed ? { destinationTrashed: true as const } : {}),
	};
}

/** The sentence a refusal that trashed the destination adds, in every entry point's words alike. */
export function trashedSentence(outcome: RelocationRefused, destination: string): string {
	return outcome.destinationTrashed
		? ` "${destination}", which you asked to replace, had already been moved to the trash; it is in this key's activity as a delete, and Revert brings it back.`
		: "";
}
