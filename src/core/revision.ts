/**
 * Revision tokens: SHA-256 of a note's exact UTF-8 bytes, base64url (256 bits). Identical content gives an identical
 * token, so A→B→A is harmless and devices that sync a vault agree on tokens without talking to each other.
 */
import * as crypto from "crypto";
import type { YieldToHost } from "./steps";

/**
 * SHA-256 in base64url. Node's one-shot `crypto.hash` (Node 20.12+) skips making a Hash object per call, a good part
 * of the cost for a note-sized text; Obsidian's older Electron builds lack it and use `createHash`.
 */
const sha256: (content: string | Uint8Array) => string =
	typeof crypto.hash === "function"
		? (content) => crypto.hash("sha256", content, "base64url")
		: (content) => crypto.createHash("sha256").update(content).digest("base64url");

/**
 * A text's revision. Nothing is remembered here: whoever reads a note hashes it once and passes the revision along
 * with the text (guard.ts NoteState), so the same text is never asked for twice on one path.
 */
export function revisionOf(content: string | Uint8Array): string {
	return sha256(content);
}

/**
 * Texts up to this long are hashed at once (about a millisecond of SHA-256, even without SHA instructions);
 * revisionInSlices hashes longer ones a slice of this size at a time.
 */
export const SLICE_CHARS = 256 * 1024;

/**
 * A text's revision, hashed a slice at a time with the host given a turn between slices, so a 5 MB note never blocks
 * it for the whole hash (tens of milliseconds on a processor without SHA instructions). The same answer as
 * revisionOf.
 */
export async function revisionInSlices(content: string, yieldToHost: YieldToHost): Promise<string> {
	if (content.length <= SLICE_CHARS) return revisionOf(content);
	const hash = crypto.createHash("sha256");
	for (let start = 0; start < content.length;) {
		let end = Math.min(content.length, start + SLICE_CHARS);
		// Each slice is encoded on its own: never between the two halves of a surrogate pair.
		if (end < content.length && isHighSurrogate(content.charCodeAt(end - 1))) end++;
		hash.update(content.slice(start, end), "utf8");
		start = end;
		if (start < content.length) await yieldToHost();
	}
	return hash.digest("base64url");
}

function isHighSurrogate(unit: number): boolean {
	return unit >= 0xd800 && unit <= 0xdbff;
}

/** A strong HTTP entity tag for a revision. */
export function etagOf(revision: string): string {
	return `"${revision}"`;
}

export interface EntityTag {
	weak: boolean;
	opaque: string;
}

/** An `If-Match` / `If-None-Match` field value, parsed per RFC 9110 §13.1. */
export type EntityTagCondition =
	{ kind: "absent" } | { kind: "any" } | { kind: "tags"; tags: EntityTag[] } | { kind: "malformed"; raw: string };

const TAG = /^\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(,|$)/;
/**
 * One of our tokens without its quotes (a revision, a part token or a change tag): what an agent copies out of a
 * JSON answer's `currentRevision` or a document map's `version`. Taken as that tag, so the commonest slip cannot
 * turn a retry into a 400; a weak tag always needs its `W/"…"`.
 */
const BARE_TOKEN = /^\s*((?:part\.|tag\.)?[A-Za-z0-9_-]{43})\s*$/;

export function parseEntityTagCondition(raw: string | undefined): EntityTagCondition {
	if (raw === undefined) return { kind: "absent" };
	if (raw.trim() === "*") return { kind: "any" };
	const bare = BARE_TOKEN.exec(raw);
	if (bare) return { kind: "tags", tags: [{ weak: false, opaque: bare[1]! }] };
	const tags: EntityTag[] = [];
	// RFC 9110 list syntax tolerates empty elements anywhere, including before the first: `, "a"`.
	let rest = raw.replace(/^(\s*,)+/, "");
	while (rest.trim() !== "") {
		const match = TAG.exec(rest);
		if (!match) return { kind: "malformed", raw };
		tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
		rest = rest.slice(match[0].length);
		if (match[3] === ",") {
			// RFC 9110 list syntax tolerates empty elements: `"a", , "b"`.
			rest = rest.replace(/^(\s*,)+/, "");
		}
	}
	if (tags.length === 0) return { kind: "malformed", raw };
	return { kind: "tags", tags };
}

/** Strong comparison (If-Match): weak tags never match. */
export function strongMatch(condition: EntityTagCondition, revision: string): boolean {
	return condition.kind === "tags" && condition.tags.some((tag) => !tag.weak && tag.opaque === revision);
}

/** Weak comparison (If-None-Match): W/"x" matches "x". */
export function weakMatch(condition: EntityTagCondition, revision: string): boolean {
	return condition.kind === "tags" && condition.tags.some((tag) => tag.opaque === revision);
}

/** The strong tags a client sent, for error messages. */
export function sentRevisions(condition: EntityTagCondition): string[] {
	return condition.kind === "tags" ? condition.tags.filter((tag) => !tag.weak).map((tag) => tag.opaque) : [];
}
