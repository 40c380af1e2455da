/** The guarded writer's contract: what a write asks for, and every way it can end. */
import type { Page } from "../../core/diff/page";
import type { Refusal, WriteOperation } from "../../core/guard";
import type { MergeRule } from "../../core/merge";
import type { PatchFailure } from "../../core/patch";
import type { ConflictRecord } from "../../core/conflicts";
import type { EntityTagCondition } from "../../core/revision";
import type { HeldRead } from "../stores/read-ledger";
import type { Sight } from "../../core/revision-tokens";
import type { NoteStat } from "../../vault/gateway";
import type { Actor } from "../notes/actor";
import type { RefusalReport } from "../refusals/refusal-report";

export interface WriteRequest {
	path: string;
	operation: WriteOperation;
	ifMatch: EntityTagCondition;
	ifNoneMatch: EntityTagCondition;
	/**
	 * Who writes. An agent's write is credited to its key and, when refused, keeps its body as a .bak with a conflict
	 * record; the person's (the merge modal's) is neither: a refused save of theirs is shown the newer note instead,
	 * and the read validity window, which is about agents' reads, does not apply to it. An agent's `client` makes its
	 * last read of the note stand in for a missing If-Match.
	 */
	actor: Actor;
	/** `Prefer: merge=auto`: on a stale token, write the three-way merge if it is clean. */
	merge?: "auto";
	/**
	 * That revision, captured when the request arrived (`heldRevision`), so that a write waiting for the body or the
	 * lock is not held to a revision the client's own parallel write produced meanwhile. Captured at the call when
	 * absent.
	 */
	heldRevision?: HeldRead | null;
	/** The client said it means to replace a non-empty note with nothing (an empty body is refused otherwise). */
	allowEmpty?: boolean;
	/**
	 * The text written is not one the caller was shown (an undo writes an old revision, or a three-way revert): the
	 * answer then hands only a change tag, and nothing counts as the caller's read of the result.
	 */
	unseenBody?: boolean;
	/** Never let a tokenless write replace an existing note, whatever the settings say (a copy over a destination). */
	requireToken?: true;
	/**
	 * The body is another note's text, which stays where it is (a copy): a refusal has nothing to keep, so it makes no
	 * .bak and no conflict record.
	 */
	bodyKeptElsewhere?: true;
	/**
	 * Which kept revisions this caller's write may be merged, diffed or patched against (its If-Match names one):
	 * merge bases are shared by every note, so a key with lists is held to its note's own (ScopeReach). Absent: any.
	 */
	mayUseBase?: (revision: string) => boolean;
}

/**
 * The kept text of `revision`, when the request may use it as a base (see WriteRequest.mayUseBase); else null. A
 * failure to read it is the caller's to report or pass over.
 */
export function baseFor(
	bases: { get(revision: string): Promise<string | null> },
	request: Pick<WriteRequest, "mayUseBase">,
	revision: string,
): Promise<string | null> {
	if (request.mayUseBase !== undefined && !request.mayUseBase(revision)) return Promise.resolve(null);
	return bases.get(revision);
}

/**
 * Every revision in an outcome comes with how much of that note the client has seen (`sight`, core/revision-tokens):
 * the answer hands the client a token that can do only what that sight allows, so no token ever reaches a client
 * without the content it names.
 */
export type WriteOutcome =
	/** `mergeRules`: with `merged`, the markdown rules that merged parts of it where git would have conflicted. */
	| {
			kind: "written";
			revision: string;
			sight: Sight;
			created: boolean;
			stat: NoteStat | null;
			merged: boolean;
			mergeRules?: MergeRule[];
	  }
	| { kind: "unchanged"; revision: string; sight: Sight }
	| { kind: "deleted" }
	/**
	 * The key may only propose changes to the note: nothing was written, the change waits for the person as a proposal
	 * (kept byte for byte at `backupPath`), followed by its id (service/proposals/proposal-sink.ts).
	 */
	| { kind: "proposed"; id: string; path: string; backupPath: string }
	/** A patch whose token was current but which does not apply to the note; nothing was written. */
	| { kind: "inapplicable"; reason: PatchFailure; detail: string; currentRevision: string; currentSight: Sight }
	| {
			kind: "refused";
			refusal: Refusal;
			currentRevision: string | null;
			/**
			 * What the client may be handed of `currentRevision`: whole (or part) only when the answer carries every change
			 * from the whole (or part) revision it sent to this one; otherwise a change tag, never a token that passes.
			 */
			currentSight: Sight;
			/** How much of the revision it sent the client had seen: a part token (or a held read of a part) is "part". */
			sentSight: "whole" | "part";
			/** Set when the refused body was kept (or keeping it was attempted). */
			conflict: ConflictRecord | null;
			/** Why the .bak could not be written, when it could not. */
			backupError: string | null;
			/** Unified diff from the sent revision to the note now (its first page), when that base is retained. */
			changes: Page | null;
			/** With `merge: "auto"`: the attempted merge, with conflict markers (its first page). */
			mergePreview:
				(Page & { /** Markdown rules that merged parts of it (absent when none). */ rules?: MergeRule[] }) | null;
			/** The token checked was the client's last read, not a sent If-Match. */
			implicit: boolean;
			/** The one report every surface renders (refusal-report.ts): its code, facts, what was kept, the next step. */
			report: RefusalReport;
	  };

export interface CompletedWrite {
	path: string;
	/** The revision the write replaced, and its content. */
	replaced: string;
	replacedContent: string;
	revision: string;
	content: string;
	by: Actor;
}

export interface CompletedDelete {
	path: string;
	/** The revision the delete removed, and its content. */
	removed: string;
	removedContent: string;
	by: Actor;
}

/** A move that landed, as history records it (see write-bookkeeping.ts `afterMove`). */
export interface CompletedMove {
	from: string;
	to: string;
	/** What the note held when it moved, and its revision. */
	content: string;
	revision: string;
	by: Actor;
	/** The id its history entries share (RevisionEntry.change). */
	change: string;
	/** The notes Obsidian rewrote links in for it (the moved note itself too, at its new path, when its own links changed). */
	rewritten: { path: string; before: string; beforeRevision: string; after: string; revision: string }[];
}
