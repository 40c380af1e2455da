/**
 * Revision tokens: SHA-256 of a note's exact UTF-8 bytes, base64url (256 bits). Identical content gives an identical
 * token, so A→B→A is harmless and devices that sync a vault agree on tokens without talking to each other.
 */
import * as crypto from "crypto";

/**
 * SHA-256 in base64url. Node's one-shot `crypto.hash` (Node 20.12+) skips making a Hash object per call, a good part
 * of the cost for a note-sized text; Obsidian's older Electron builds lack it and use `createHash`.
 */
const sha256: (content: string | Uint8Array) => string =
	typeof crypto.hash === "function" ? (content) => crypto.hash("sha256", content, "base64url") : (content) => crypto.createHash("sha256").update(content).digest("base64url");

export function revisionOf(content: string | Uint8Array): string {
	if (typeof content !== "string") return sha256(content);
	// One write asks for the same texts' revisions several times (the check, the tracker, history): the last two
	// answers are kept. Equal text is the same revision, so this can only skip work, never change an answer.
	if (content === recent[0].content) return recent[0].revision;
	if (content === recent[1].content) return recent[1].revision;
	const revision = sha256(content);
	recent[1] = recent[0];
	recent[0] = { content, revision };
	return revision;
}

const recent: [{ content: string | null; revision: string }, { content: string | null; revision: string }] = [
	{ content: null, revision: "" },
	{ content: null, revision: "" },
];

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
	| { kind: "absent" }
	| { kind: "any" }
	| { kind: "tags"; tags: EntityTag[] }
	| { kind: "malformed"; raw: string };

const TAG = /^\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(,|$)/;

export function parseEntityTagCondition(raw: string | undefined): EntityTagCondition {
	if (raw === undefined) return { kind: "absent" };
	if (raw.trim() === "*") return { kind: "any" };
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
