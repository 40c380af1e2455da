/**
 * The write-guard decision: given the note as it is now and what a client asked for, say exactly what may happen.
 * Pure: the caller runs it inside the gateway's atomic read-check-write, so "now" cannot move underneath it.
 */
import { applyEdits, type TextEdit } from "./edit";
import type { PatchFailure, PatchResult } from "./patch";
import { revisionOf, sentRevisions, type EntityTagCondition } from "./revision";
import { noneMatchSight, proofIn, sentTokenKind } from "./revision-tokens";
import type { ScopeForbidden } from "./scope-refusal";

export type WriteOperation =
	| { kind: "replace"; body: string }
	| { kind: "append"; body: string }
	/**
	 * A change computed on the note as it is inside the atomic step (PATCH), so it can never be computed on one
	 * version and written over another. It always needs a token, and a note that is not there cannot be patched.
	 */
	| { kind: "patch"; apply: (current: string) => PatchResult }
	/**
	 * Exact old → new text edits, applied inside the atomic step. They need no token: an edit cannot erase what it
	 * did not match, so two agents editing different parts of a note both land. A token, when sent, is still checked.
	 */
	| { kind: "edit"; edits: readonly TextEdit[] }
	| { kind: "delete" };

export interface GuardRequest {
	operation: WriteOperation;
	ifMatch: EntityTagCondition;
	ifNoneMatch: EntityTagCondition;
	/** When false, tokenless updates are allowed but still pass the content-loss check. */
	requireToken: boolean;
	/** True when the sent token matches but the client read it longer ago than the validity window allows. */
	readExpired?: boolean;
	/** The client said it means to empty a non-empty note (an empty body is otherwise refused). */
	allowEmpty?: boolean;
	/**
	 * `ifMatch` is the client's last read standing in for a missing If-Match, not a condition it sent: a note that is
	 * not there (any more) is then simply created, as it would be without a token.
	 */
	implicit?: boolean;
}

export type Refusal =
	/**
	 * 428: an update needs a token that proves the client saw what it replaces. `wildcard`: it sent `If-Match: *`;
	 * `sent`: it sent a change tag (from a listing, HEAD or a 428), or a part token (from a document map or a section
	 * read) for a write that replaces or deletes the whole note; `lastReadPart`: it sent none, and its last read was
	 * of part of the note.
	 */
	| { reason: "token-required"; wildcard?: boolean; sent?: "change-tag" | "part-token"; lastReadPart?: boolean }
	/** 412: `If-Match` names a revision that is not current. */
	| { reason: "stale"; sentRevision: string | null }
	/** 412: `If-None-Match: *` (or a matching tag) but the note exists. */
	| { reason: "exists" }
	/** 412: the token is current but older than the read validity window. */
	| { reason: "read-expired"; sentRevision: string }
	/** 409: a tokenless write would destroy most of a note. */
	| { reason: "content-loss"; currentLength: number; newLength: number }
	/** 409: an empty body would replace a non-empty note, and the client did not say it means that. */
	| { reason: "empty-body"; currentLength: number }
	/** 403: agents may read .bak notes but never change or delete them. */
	| { reason: "backup-read-only" }
	/** 412: the note is being edited where its text cannot be checked (a canvas card, a popover). */
	| { reason: "note-in-use" }
	/** 404: nothing to delete. */
	| { reason: "not-found" }
	/** 400: unparseable conditional header. */
	| { reason: "malformed-condition"; header: "If-Match" | "If-None-Match" }
	/** 403: the key's scope does not let it make this change (decided before the note is looked at). */
	| ScopeForbidden;

export type GuardDecision =
	| { kind: "write"; content: string; created: boolean }
	| { kind: "delete" }
	/** The note already holds exactly what was sent: success without writing (safe retries). */
	| { kind: "unchanged" }
	/** The token was current, but the patch does not apply to the note (a missing heading, an invalid value). */
	| { kind: "inapplicable"; failure: { reason: PatchFailure; detail: string } }
	| { kind: "refuse"; refusal: Refusal };

/** Notes at least this long are covered by the content-loss check. */
export const CONTENT_LOSS_MIN_LENGTH = 100;

/** A note as one step saw it: its text, and the revision of exactly that text (hashed once, by whoever read it). */
export interface NoteState {
	content: string;
	revision: string;
}

/** The state of a note just read (null: not there), hashed here, once. */
export function noteStateOf(content: string | null): NoteState | null {
	return content === null ? null : { content, revision: revisionOf(content) };
}

export function decideWrite(current: string | null, request: GuardRequest): GuardDecision {
	return decideOn(noteStateOf(current), request);
}

/** What may happen when a note is there or not, whose revision is already known. */
export function decideOn(current: NoteState | null, request: GuardRequest): GuardDecision {
	return current === null ? decideCreate(request) : decideOnNote(current, request);
}

/** The decision when no note is there: it can only be created, or refused. */
export function decideCreate(request: GuardRequest): Extract<GuardDecision, { kind: "write" | "refuse" }> {
	const { operation, ifMatch } = request;
	const malformed = malformedCondition(request);
	if (malformed !== null) return malformed;
	if (operation.kind === "delete" || operation.kind === "patch" || operation.kind === "edit")
		return refuse({ reason: "not-found" });
	// Any If-Match, `*` included, is false when there is no note (RFC 9110 §13.1.1); a last read stands for none.
	if (ifMatch.kind !== "absent" && !request.implicit)
		return refuse({ reason: "stale", sentRevision: sentRevisions(ifMatch)[0] ?? null });
	return { kind: "write", content: operation.body, created: true };
}

function malformedCondition(request: GuardRequest): Extract<GuardDecision, { kind: "refuse" }> | null {
	if (request.ifMatch.kind === "malformed") return refuse({ reason: "malformed-condition", header: "If-Match" });
	if (request.ifNoneMatch.kind === "malformed")
		return refuse({ reason: "malformed-condition", header: "If-None-Match" });
	return null;
}

/** The decision on a note that is there, `current` with its revision. */
export function decideOnNote(state: NoteState, request: GuardRequest): GuardDecision {
	const { operation, ifNoneMatch } = request;
	const malformed = malformedCondition(request);
	if (malformed !== null) return malformed;
	const current = state.content;
	if (ifNoneMatch.kind === "any" || noneMatchSight(ifNoneMatch, state.revision) !== null) {
		return refuse({ reason: "exists" });
	}
	if (operation.kind === "patch") return decidePatch(state, operation.apply, request);
	if (operation.kind === "edit") return decideEdit(state, operation.edits, request);
	// `curl --data-binary @missing-file` sends nothing: with a valid token it would wipe the note.
	if (operation.kind === "replace" && operation.body === "" && current !== "" && !request.allowEmpty) {
		return refuse({ reason: "empty-body", currentLength: current.length });
	}
	if (operation.kind === "replace" && operation.body === current) return { kind: "unchanged" };

	const needsToken = operation.kind !== "append";
	const { ifMatch } = request;
	if (ifMatch.kind === "tags") {
		// Appending overwrites nothing, so a part token, when sent, is enough for it; replacing or deleting is not.
		const refused = checkToken(state.revision, request, needsToken ? "whole" : "part");
		if (refused) return refused;
	} else if (needsToken) {
		// `If-Match: *` proves nothing about what the client read, so it is treated like no token at all.
		if (ifMatch.kind === "any") return refuse({ reason: "token-required", wildcard: true });
		if (request.requireToken) return refuse({ reason: "token-required" });
		if (operation.kind === "replace" && wouldLoseContent(current, operation.body)) {
			return refuse({ reason: "content-loss", currentLength: current.length, newLength: operation.body.length });
		}
	}

	switch (operation.kind) {
		case "replace":
			return { kind: "write", content: operation.body, created: false };
		case "append":
			return { kind: "write", content: current + operation.body, created: false };
		case "delete":
			return { kind: "delete" };
	}
}

/**
 * A patch needs the revision it was meant for (sent, or the client's last read); only then is it computed. A part
 * token is enough: a patch changes only the part it names.
 */
function decidePatch(
	current: NoteState,
	apply: (current: string) => PatchResult,
	request: GuardRequest,
): GuardDecision {
	const { ifMatch } = request;
	if (ifMatch.kind !== "tags")
		return refuse({ reason: "token-required", ...(ifMatch.kind === "any" ? { wildcard: true } : {}) });
	return checkToken(current.revision, request, "part") ?? applied(current.content, apply(current.content));
}

/** Edits need no token (they change only the text they match); a sent token must still be current. */
function decideEdit(current: NoteState, edits: readonly TextEdit[], request: GuardRequest): GuardDecision {
	if (request.ifMatch.kind === "tags") {
		const refused = checkToken(current.revision, request, "part");
		if (refused) return refused;
	}
	return applied(current.content, applyEdits(current.content, edits));
}

/**
 * Checks a sent If-Match against the note: null when it proves the client saw at least `needs` of the current
 * revision (and the read is within the validity window), else the refusal. A change tag never proves anything, and
 * a part token never proves the whole note, whether or not the note changed since: that is a 428 (read first), not
 * a stale write.
 */
function checkToken(revision: string, request: GuardRequest, needs: "whole" | "part"): GuardDecision | null {
	const { ifMatch } = request;
	const proof = proofIn(ifMatch, revision);
	const sent = sentTokenKind(ifMatch);
	if (sent === "tag") return refuse({ reason: "token-required", sent: "change-tag" });
	if (needs === "whole" && (proof === "part" || (proof === null && sent === "part")))
		return refuse({ reason: "token-required", sent: "part-token" });
	if (proof === null) return refuse({ reason: "stale", sentRevision: sentRevisions(ifMatch)[0] ?? null });
	if (request.readExpired) return refuse({ reason: "read-expired", sentRevision: revision });
	return null;
}

function applied(current: string, result: PatchResult): GuardDecision {
	if (!result.ok) return { kind: "inapplicable", failure: { reason: result.reason, detail: result.detail } };
	return result.content === current
		? { kind: "unchanged" }
		: { kind: "write", content: result.content, created: false };
}

/** A tokenless write that shrinks a substantial note to under half its length is almost always a stale copy. */
export function wouldLoseContent(current: string, next: string): boolean {
	return current.length >= CONTENT_LOSS_MIN_LENGTH && next.length < current.length / 2;
}

function refuse(refusal: Refusal): Extract<GuardDecision, { kind: "refuse" }> {
	return { kind: "refuse", refusal };
}
