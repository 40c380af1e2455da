/**
 * What every entry point tells a client about a refused move or copy, beside its own wording: which note the refusal
 * is about, and that note's revision now, as a change tag only (neither note's content was shown). Part of the one
 * report (service/refusals/relocation-report.ts), so no surface builds them itself.
 */
import type { RefusalCode } from "../../core/refusal-codes";
import { changeTagOf } from "../../core/revision-tokens";
import type { RelocationRefusedFacts } from "../refusals/relocation-report";

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

export function relocationFacts(outcome: RelocationRefusedFacts, code: RefusalCode): RelocationFacts {
	const { refusal } = outcome;
	return {
		error: code,
		side: outcome.side,
		path: outcome.path,
		...(outcome.currentRevision === null
			? { currentRevision: null }
			: { changeTag: changeTagOf(outcome.currentRevision) }),
		...(refusal.reason === "token-required" && refusal.sent ? { sentToken: refusal.sent } : {}),
		...(refusal.reason === "token-required" && refusal.lastReadPart ? { lastReadPart: true as const } : {}),
		...(outcome.implicit ? { implicitRevision: true as const } : {}),
		...(outcome.trashedDestination !== undefined ? { destinationTrashed: true as const } : {}),
	};
}
