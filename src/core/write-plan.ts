/**
 * The write step as a plan: given the note as the atomic step saw it (its text and revision, hashed once), what the
 * client asked for and any merge already computed, say what to write and why. Pure: the guarded writer runs it inside
 * the gateway's read-check-write and carries it out (service/write/guarded-writer.ts); the plan carries every revision the
 * writer records afterwards, so nothing after it hashes the same text again.
 */
import {
	decideCreate,
	decideOnNote,
	type GuardDecision,
	type GuardRequest,
	type NoteState,
	type Refusal,
} from "./guard";
import type { MergeRule } from "./merge";
import { revisionOf, sentRevisions } from "./revision";

export type { NoteState } from "./guard";

/** A three-way merge of the agent's body into the note (`Prefer: merge=auto`), as computed outside the step. */
export type AutoMerge =
	/** `rules`: the markdown rules (RULES.md) that merged parts of it where git would have conflicted. */
	| { kind: "merged"; text: string; rules: MergeRule[] }
	/** Not clean: the preview shows the conflicts with git-style markers, for the 412 (with the rules that merged the rest). */
	| { kind: "conflicted"; preview: string; conflicts: number; rules: MergeRule[] }
	/** The merge itself failed: the write is refused as if no merge had been asked for. */
	| { kind: "failed" };

/** A stale replace may be merged: what it needs. */
export interface MergeOption {
	/** What the agent read (the merge's base). */
	base: string;
	/** False once the note changed under too many merges: the write is then refused as stale. */
	mayMerge: boolean;
	/** The merge computed for an earlier step, against the note of revision `against`; used only if that is the note now. */
	done: { against: string; result: AutoMerge } | null;
}

export interface WritePlanInput {
	/** The note as the step sees it, null when it is not there. */
	current: NoteState | null;
	/**
	 * An earlier step of this write saw the note. Gone now, it was moved or deleted meanwhile: writing would re-create
	 * it under its old name, so that is refused as stale, never taken as a create.
	 */
	sawNote: boolean;
	/** The guard's request; its `readExpired` was judged on `current`'s revision. */
	request: GuardRequest;
	/** The revision of a replace's body, when it was worked out before the step (a big body, hashed in slices). */
	bodyRevision: string | null;
	/** Present when a stale replace may be merged instead of refused. */
	merge: MergeOption | null;
}

export type WritePlan =
	/** Write `content` (of `revision`) in place of `replaced` (null: create it); `merge`: the merge that made it. */
	| {
			kind: "write";
			content: string;
			revision: string;
			created: boolean;
			replaced: NoteState | null;
			merge: { rules: MergeRule[] } | null;
	  }
	/** Trash the note. */
	| { kind: "delete"; removed: NoteState }
	/** The note already is what was asked for: nothing to write. */
	| { kind: "unchanged"; current: NoteState }
	/** The token was current, but the change does not apply to the note. */
	| { kind: "inapplicable"; failure: Extract<GuardDecision, { kind: "inapplicable" }>["failure"]; current: NoteState }
	/** Refused; `conflicted`: the merge tried, with its conflicts, for the answer. */
	| {
			kind: "refuse";
			refusal: Refusal;
			current: NoteState | null;
			conflicted: { preview: string; rules: MergeRule[] } | null;
	  }
	/** Merge `body` onto `current` from `base` outside the step, then plan again with it. */
	| { kind: "merge"; base: string; current: NoteState; body: string };

export function planWrite(input: WritePlanInput): WritePlan {
	const { current, request } = input;
	if (current === null) {
		if (input.sawNote) return refused(staleRefusal(request), null);
		const decision = decideCreate(request);
		return decision.kind === "refuse"
			? refused(decision.refusal, null)
			: writing(input, decision.content, { created: true, replaced: null, merge: null });
	}
	const decision = decideOnNote(current, request);
	switch (decision.kind) {
		case "write":
			return writing(input, decision.content, { created: decision.created, replaced: current, merge: null });
		case "delete":
			return { kind: "delete", removed: current };
		case "unchanged":
			return { kind: "unchanged", current };
		case "inapplicable":
			return { kind: "inapplicable", failure: decision.failure, current };
		case "refuse":
			return decision.refusal.reason === "stale"
				? staleOrMerged(input, current, decision.refusal)
				: refused(decision.refusal, current);
	}
}

/** A stale replace that may be merged: merged (then written), or refused with the merge's conflicts. */
function staleOrMerged(input: WritePlanInput, current: NoteState, refusal: Refusal): WritePlan {
	const { merge, request } = input;
	const { operation } = request;
	if (merge === null || !merge.mayMerge || operation.kind !== "replace") return refused(refusal, current);
	if (merge.done?.against !== current.revision)
		return { kind: "merge", base: merge.base, current, body: operation.body };
	const result = merge.done.result;
	if (result.kind === "merged")
		return writing(input, result.text, { created: false, replaced: current, merge: { rules: result.rules } });
	return result.kind === "conflicted"
		? { kind: "refuse", refusal, current, conflicted: { preview: result.preview, rules: result.rules } }
		: refused(refusal, current);
}

function writing(
	input: WritePlanInput,
	content: string,
	how: { created: boolean; replaced: NoteState | null; merge: { rules: MergeRule[] } | null },
): WritePlan {
	const { bodyRevision, request } = input;
	const { operation } = request;
	// A body hashed before the step is not hashed again; anything else the step made (an append, a patch, a merge) is.
	const revision =
		bodyRevision !== null && operation.kind === "replace" && content === operation.body
			? bodyRevision
			: revisionOf(content);
	return { kind: "write", content, revision, ...how };
}

function refused(refusal: Refusal, current: NoteState | null): WritePlan {
	return { kind: "refuse", refusal, current, conflicted: null };
}

function staleRefusal(request: GuardRequest): Refusal {
	return { reason: "stale", sentRevision: sentRevisions(request.ifMatch)[0] ?? null };
}
