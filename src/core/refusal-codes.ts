/**
 * One vocabulary of refusals: the same refusal has the same code on every surface. REST sends it as its problem type
 * (/problems/{code}), MCP as a failed tool result's `error` field, the CLI as its answer's `error`, and the Local REST
 * API's `errorCode` is looked up from it (http/lra-error-codes.ts). Each surface words the refusal in its own terms;
 * only the code is shared, decided here from the writer's outcome.
 */
import type { Refusal } from "./guard";
import type { PatchFailure } from "./patch";

export type RefusalCode =
	/** The write named a revision that is not the note now (or the note was deleted since). */
	| "stale-revision"
	/** A create-only write found the note there. */
	| "note-exists"
	/** The revision is current, but was read longer ago than the read validity window. */
	| "read-expired"
	/** A write that replaces or deletes an existing note came without a revision that proves what was read. */
	| "precondition-required"
	/** The revision sent (If-Match, `revision`, `revision=`) is not one at all. */
	| "malformed-precondition"
	| "content-loss"
	| "empty-body"
	| "backup-read-only"
	| "note-in-use"
	| "note-not-found"
	/** The heading, block or frontmatter key a patch names is not in the note. */
	| "target-not-found"
	/** A patch that cannot be applied as given (an ambiguous target, a value the target cannot take). */
	| "invalid-patch"
	/** The note's frontmatter is not valid YAML, so a frontmatter change cannot be made. */
	| "invalid-frontmatter"
	/** An exact-text edit whose old text is not in the note (or is there more than once). */
	| "edit-not-applied"
	/** Refusals of a path or of a note's bytes (service/refusals/vault-refusals.ts). */
	| "note-not-utf8"
	| "name-clash"
	| "note-not-ready"
	| "invalid-path"
	/** The key's scope does not let it make this change (core/scope-refusal.ts names the rule). */
	| "scope-forbidden"
	/** A move or copy found a note (or a folder) at its destination, and was not asked to replace it. */
	| "destination-exists"
	/**
	 * Not a refusal: the change is in place, but the disk reported an error (EIO, ENOSPC...) while making it durable,
	 * so it is not acknowledged as a success (service/refusals/not-durable.ts).
	 */
	| "not-durable";

/** The code of a write the guard refused. */
export function refusalCode(refusal: Refusal): RefusalCode {
	switch (refusal.reason) {
		case "token-required":
			return "precondition-required";
		case "stale":
			return "stale-revision";
		case "exists":
			return "note-exists";
		case "not-found":
			return "note-not-found";
		case "malformed-condition":
			return "malformed-precondition";
		default:
			return refusal.reason;
	}
}

/** The code of a patch or an edit that does not apply to the note as it is (its finer reason travels beside it). */
export function inapplicableCode(reason: PatchFailure, change: "patch" | "edit"): RefusalCode {
	if (change === "edit") return "edit-not-applied";
	if (reason === "target-not-found" || reason === "invalid-frontmatter") return reason;
	return "invalid-patch";
}

/**
 * The code of a refused move or copy: a write's code, but a destination that is taken is "destination-exists" however
 * the write over it was refused (created only, or a tokenless replace that would lose text).
 */
export function relocationCode(refusal: Refusal | { reason: "destination-exists" }): RefusalCode {
	switch (refusal.reason) {
		case "destination-exists":
		case "exists":
		case "content-loss":
		case "empty-body":
			return "destination-exists";
		default:
			return refusalCode(refusal);
	}
}
