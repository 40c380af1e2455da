/**
 * One refusal report, decided once here and rendered by every surface: the code (core/refusal-codes.ts), the facts
 * (the revisions, the diff and the merge preview, from stale-facts.ts), what was kept, and the next step as data.
 * REST, MCP, the CLI and the Local REST API routes only turn it into their own words and verbs; none of them decides
 * a code, a fact or a next step of its own.
 */
import type { Refusal } from "../../core/guard";
import { refusalCode, type RefusalCode } from "../../core/refusal-codes";
import { tokenFor } from "../../core/revision-tokens";
import { nextPageRevisions, staleFacts, type StaleFacts } from "./stale-facts";
import type { WriteOutcome } from "../write/write-request";

/** What was kept of the refused write: its conflict record, and the .bak it names. */
export interface KeptRecord {
	conflictId: string;
	/** The .bak holding the refused text byte for byte; null when it could not be written (`backupError`). */
	backupPath: string | null;
	/** Why the .bak could not be written: the text was not kept anywhere, and the caller must keep its copy. */
	backupError: string | null;
	/** Why the conflict record could not be saved: it is held in memory only and may not outlive a restart. */
	recordError: string | null;
}

/** What the caller can do next, as data: each surface says it with its own verbs (PUT, write_note, revision-guard:write). */
export type NextStep =
	/** Read the (whole) note first, then send the change again with the revision that read returns. */
	| { kind: "read-then-retry" }
	/** Read the note again, re-apply the change to what it holds now, and retry with the revision that read returns. */
	| { kind: "reread-and-retry" }
	/** The answer carries every change since the revision sent: apply the change on top and retry with `revision`. */
	| { kind: "retry-with-revision"; revision: string }
	/** The note is gone: write it again without a revision to create it. */
	| { kind: "create-again" }
	/** There is nothing left to do (a delete of a note that is not there). */
	| { kind: "nothing-to-do" }
	/** Send the same write saying that emptying the note is meant. */
	| { kind: "confirm-empty" }
	/** The person is editing the note where its text cannot be checked: once they have finished, re-read and retry. */
	| { kind: "retry-when-free" }
	/** .bak notes are the person's: write to the note the backup belongs to instead. */
	| { kind: "write-the-note-it-belongs-to" }
	/** The revision sent was not one: send it exactly as it was received. */
	| { kind: "resend-revision-as-received" }
	/** Only the person can change what the key may do (core/scope-refusal.ts says how, per rule). */
	| { kind: "ask-the-person" }
	/** A move or copy found a note at its destination: read that note, then ask again to replace it, with its revision. */
	| { kind: "confirm-replace" }
	/** A move or copy cannot use this path at all (a folder at the destination, a .bak): choose another note or path. */
	| { kind: "choose-another-path" };

export interface RefusalReport {
	/** The one code, from the one list: REST's problem type, MCP's and the CLI's `error`, the key of LRA's errorCode. */
	code: RefusalCode;
	/** The guard's refusal, with the facts of its own kind (lengths, the header, the scope rule). */
	refusal: Refusal;
	/** Whether the refused change was a delete (some next steps and verbs differ). */
	deleting: boolean;
	/** The revisions, the diff's first page and the merge preview, as every surface hands them. */
	facts: StaleFacts;
	/** For a read-expired refusal: the revision sent, as a token of what the client had seen. */
	expiredRevision: string | null;
	/** Where the rest of a diff cut at the answer size limit is: the revisions a next-page request names, and the offset. */
	changesNext: { since: string; to: string; offset: number } | null;
	/** What was kept (null when the refusal keeps nothing: no body, or not an agent's). */
	kept: KeptRecord | null;
	next: NextStep;
	/** The revision checked was the caller's last read standing in for one it did not send. */
	implicit: boolean;
}

/** The refused outcome as the writer assembles it, before its report is added. */
export type RefusedFacts = Omit<Extract<WriteOutcome, { kind: "refused" }>, "report">;

/** Builds the report of a refused write. `recordError` is the conflict record's save failure, if any. */
export function refusalReport(
	outcome: RefusedFacts,
	change: "write" | "delete",
	recordError: string | null = null,
): RefusalReport {
	const { refusal, conflict, backupError, changes } = outcome;
	const facts = staleFacts(outcome);
	const pages = nextPageRevisions(outcome);
	return {
		code: refusalCode(refusal),
		refusal,
		deleting: change === "delete",
		facts,
		expiredRevision: refusal.reason === "read-expired" ? tokenFor(refusal.sentRevision, outcome.sentSight) : null,
		changesNext: changes?.truncated && pages !== null ? { ...pages, offset: changes.nextOffset ?? 0 } : null,
		kept:
			conflict === null ? null : { conflictId: conflict.id, backupPath: conflict.backupPath, backupError, recordError },
		next: nextStep(outcome, change),
		implicit: outcome.implicit,
	};
}

function nextStep(outcome: RefusedFacts, change: "write" | "delete"): NextStep {
	const { refusal, currentRevision, currentSight } = outcome;
	switch (refusal.reason) {
		case "token-required":
			return { kind: "read-then-retry" };
		case "stale":
			if (currentRevision === null) return change === "delete" ? { kind: "nothing-to-do" } : { kind: "create-again" };
			// Only an answer that carries every change since what the client saw may hand it a revision to write with.
			return currentSight === "none"
				? { kind: "reread-and-retry" }
				: { kind: "retry-with-revision", revision: tokenFor(currentRevision, currentSight) };
		case "read-expired":
		case "exists":
		case "content-loss":
			return { kind: "reread-and-retry" };
		case "empty-body":
			return { kind: "confirm-empty" };
		case "note-in-use":
			return { kind: "retry-when-free" };
		case "backup-read-only":
			return { kind: "write-the-note-it-belongs-to" };
		case "not-found":
			return change === "delete" ? { kind: "nothing-to-do" } : { kind: "create-again" };
		case "malformed-condition":
			return { kind: "resend-revision-as-received" };
		case "scope-forbidden":
			return { kind: "ask-the-person" };
	}
}
