/**
 * The guarded writer's contract for moves and copies: what they ask for, and every way they end. A move takes the
 * whole note somewhere else, so it needs the note's revision (the whole of it: sent, or the client's whole read); a
 * note at the destination is never replaced without its own revision. A copy overwrites nothing unless asked, and
 * then only with the destination's revision.
 */
import type { Refusal } from "../../core/guard";
import type { HeldRead } from "../stores/read-ledger";
import type { EntityTagCondition } from "../../core/revision";
import type { Sight } from "../../core/revision-tokens";
import type { Actor } from "../notes/actor";
import type { RelocationReport } from "../refusals/relocation-report";

export interface MoveRequest {
	from: string;
	to: string;
	/** The note's revision, as sent (If-Match). */
	ifMatch: EntityTagCondition;
	/** Replace a note that is at `to` (Allow-Overwrite: true); it still needs that note's own revision. */
	overwrite: boolean;
	/** The destination note's revision, as sent (Destination-If-Match). */
	destinationIfMatch: EntityTagCondition;
	actor: Actor;
	/** What a tokenless client is held to for `from` and for `to`, captured when the request arrived (as WriteRequest's). */
	heldRevision?: HeldRead | null;
	heldDestination?: HeldRead | null;
}

export interface CopyRequest {
	from: string;
	to: string;
	/**
	 * Optional: the source revision the client means to copy. When sent, the copy is made only of exactly that
	 * revision (412 otherwise); without it, of the note as it is, which the client may not have seen.
	 */
	ifMatch: EntityTagCondition;
	overwrite: boolean;
	destinationIfMatch: EntityTagCondition;
	actor: Actor;
	heldDestination?: HeldRead | null;
}

/** Why a move or copy was refused: the guard's refusals, or a destination that is taken and not to be replaced. */
export type RelocationRefusal =
	Refusal | { reason: "destination-exists"; /** Something other than a note is there. */ notANote?: true };

export type MoveOutcome =
	/**
	 * `revision` is the note's at its new path, handed as `sight` allows: "whole" only when the client proved it had
	 * the whole note and it arrived unchanged (Obsidian may rewrite its own links).
	 */
	| {
			kind: "moved";
			from: string;
			to: string;
			revision: string;
			sight: Sight;
			rewritten: { path: string; revision: string }[];
			replaced: boolean;
	  }
	/** The destination is the note's own path: nothing to do. */
	| { kind: "same-path"; path: string; revision: string }
	| { kind: "missing" }
	| RelocationRefused;

export type CopyOutcome =
	| { kind: "copied"; from: string; to: string; revision: string; sight: Sight; created: boolean }
	| { kind: "missing" }
	| RelocationRefused;

export interface RelocationRefused {
	kind: "refused";
	/** Which note the refusal is about. */
	side: "source" | "destination";
	path: string;
	refusal: RelocationRefusal;
	/** That note's revision now (null when it is gone), handed only as a change tag: nothing of it was shown. */
	currentRevision: string | null;
	/** The client's last read stood in for the If-Match it did not send. */
	implicit: boolean;
	/**
	 * A move that replaced its destination, then found its note changed (or the destination taken again) before it
	 * could move it: the replaced note (this path) is in the trash, recorded in history as this client's delete (Revert
	 * brings it back). Rare: both notes are locked against every other writer here; only another program can get in
	 * between.
	 */
	trashedDestination?: string;
	/** What every surface renders (service/refusals/relocation-report.ts), built once by `relocationRefused`. */
	report: RelocationReport;
}
