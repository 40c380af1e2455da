/**
 * A gateway's refusal of a path or of a note's bytes (vault/errors.ts), or the writer's answer to a change the disk
 * failed to make durable (not-durable.ts), as the service hands it to REST, MCP and the CLI: which kind of answer it
 * is, and the facts each of them words in its own way. The adapters never see the error classes, so they stay in
 * front of the service.
 */
import type { RefusalCode } from "../../core/refusal-codes";
import { NoteEncodingError, VaultPathError } from "../../vault/errors";
import { NotDurableError, type NotDurableChange } from "./not-durable";

export interface VaultRefusal {
	/** The answer's kind: its refusal code, the same in every adapter. */
	kind: Extract<RefusalCode, "note-not-utf8" | "name-clash" | "note-not-ready" | "invalid-path" | "not-durable">;
	/** The sentence: what was refused (or, not-durable, what was done and what the disk said) and why. */
	message: string;
	path: string;
	/** The gateway's own reason (a path refusal's finer kind, for MCP's `error` field); "note-not-utf8" for bytes. */
	reason: VaultPathError["reason"] | "note-not-utf8" | "not-durable";
	/** For a name clash: the existing note's path. */
	existing?: string;
	/**
	 * For not-durable: what is in place (each surface words its next step by it: a deleted note is not read back), the
	 * disk's error code (EIO, ENOSPC...) or null, the revision now in place if known, and for a delete where the note is
	 * in the trash, if the host chose the place.
	 */
	change?: NotDurableChange["kind"];
	diskError?: string | null;
	revision?: string;
	trashedTo?: string | null;
}

/** The refusal `error` stands for, or null when it is not one (then it is a real failure). */
export function vaultRefusalOf(error: unknown): VaultRefusal | null {
	if (error instanceof NotDurableError)
		return {
			kind: "not-durable",
			message: error.message,
			path: error.path,
			reason: "not-durable",
			change: error.change.kind,
			diskError: error.diskError,
			...("revision" in error.change ? { revision: error.change.revision } : {}),
			...("trashedTo" in error.change ? { trashedTo: error.change.trashedTo } : {}),
		};
	if (error instanceof NoteEncodingError)
		return { kind: "note-not-utf8", message: error.message, path: error.path, reason: "note-not-utf8" };
	if (!(error instanceof VaultPathError)) return null;
	const kind =
		error.reason === "name-variant" || error.reason === "case-variant"
			? "name-clash"
			: error.reason === "not-indexed" || error.reason === "index-behind"
				? "note-not-ready"
				: "invalid-path";
	return {
		kind,
		message: error.message,
		path: error.path,
		reason: error.reason,
		...(error.existing ? { existing: error.existing } : {}),
	};
}
