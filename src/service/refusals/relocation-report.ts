/**
 * The refusal report of a move or copy, decided once here as a write's is (refusal-report.ts): the code from the one
 * list, the facts every surface hands (relocation-facts.ts), what was kept (nothing: a move or copy carries no text of
 * the client's), and the next step as data. REST's MOVE and COPY, move_note and copy_note, and the Local REST API's
 * vault_move and vault_copy only turn it into their own words and verbs.
 */
import type { Refusal } from "../../core/guard";
import { relocationCode, type RefusalCode } from "../../core/refusal-codes";
import type { RelocationRefusal, RelocationRefused } from "../moves/move-request";
import { relocationFacts, type RelocationFacts } from "../moves/relocation-facts";
import type { NextStep } from "./refusal-report";

/**
 * The refusal as every surface words it: a taken destination is one refusal, however the write over it was refused
 * (created only, or a replace that would lose text), as its code already says.
 */
export type RelocationShown =
	| Exclude<Refusal, { reason: "exists" | "content-loss" | "empty-body" }>
	| { reason: "destination-exists"; notANote?: true };

export interface RelocationReport {
	/** The one code, from the one list: REST's problem type, and the `error` of MCP's and LRA's facts. */
	code: RefusalCode;
	refusal: RelocationShown;
	/** Which note the refusal is about, and its path. */
	side: "source" | "destination";
	path: string;
	/** The fields every surface hands as they are (the code, the side, the note's change tag, ...). */
	facts: RelocationFacts;
	/** Nothing is kept: a move or copy carries no text of the client's, so nothing of it can be lost. */
	kept: null;
	next: NextStep;
	/** The client's last read stood in for the revision it did not send. */
	implicit: boolean;
	/** The note at the destination a refused move had already put in the trash (as the client's delete), if any. */
	trashedDestination: string | null;
}

/** The refused move or copy as the mover and the copier decide it, before its report is added. */
export type RelocationRefusedFacts = Omit<RelocationRefused, "report">;

/** A refused move or copy with its report: the one way the service makes one. */
export function relocationRefused(facts: RelocationRefusedFacts): RelocationRefused {
	return { ...facts, report: relocationReport(facts) };
}

function relocationReport(outcome: RelocationRefusedFacts): RelocationReport {
	const refusal = shown(outcome.refusal);
	const code = relocationCode(outcome.refusal);
	return {
		code,
		refusal,
		side: outcome.side,
		path: outcome.path,
		facts: relocationFacts(outcome, code),
		kept: null,
		next: nextStep(refusal, outcome.currentRevision),
		implicit: outcome.implicit,
		trashedDestination: outcome.trashedDestination ?? null,
	};
}

function shown(refusal: RelocationRefusal): RelocationShown {
	switch (refusal.reason) {
		case "exists":
		case "content-loss":
		case "empty-body":
			return { reason: "destination-exists" };
		default:
			return refusal;
	}
}

function nextStep(refusal: RelocationShown, currentRevision: string | null): NextStep {
	switch (refusal.reason) {
		case "destination-exists":
			return refusal.notANote ? { kind: "choose-another-path" } : { kind: "confirm-replace" };
		case "token-required":
		case "read-expired":
			return { kind: "read-then-retry" };
		case "stale":
			// A note that is gone leaves nothing to move, copy or replace.
			return currentRevision === null ? { kind: "nothing-to-do" } : { kind: "read-then-retry" };
		case "note-in-use":
			return { kind: "retry-when-free" };
		case "backup-read-only":
			return { kind: "choose-another-path" };
		case "not-found":
			return { kind: "nothing-to-do" };
		case "malformed-condition":
			return { kind: "resend-revision-as-received" };
		case "scope-forbidden":
			return { kind: "ask-the-person" };
	}
}
