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

export function revisionOf(content: string | Uint8Array): string {
	if (typeof content !== "string") return sha256(content);
	// The same text is hashed again and again: a write's check hashes the note it reads back, which is what the last
	// write wrote, and the tracker, history and reads ask too. Answers are remembered with the text itself and given
	// only for an equal text, so a remembered answer is always the hash of exactly this text: this can only skip work,
	// never change an answer.
	if (content.length > MAX_MAPPED_TEXT) return revisionOfLong(content);
	const key = fingerprintOf(content);
	const known = answerIn(remembered.current.get(key), content);
	if (known !== undefined) return known;
	const revision = answerIn(remembered.previous.get(key), content) ?? sha256(content);
	remember(key, content, revision);
	return revision;
}

/**
 * Longer texts are remembered two at a time (one write asks for its old and new text several times), so a few big
 * notes never push every small one out.
 */
const MAX_MAPPED_TEXT = 16_383;
/** Each generation holds at most this many characters, so at most twice this is kept alive by the memory. */
const GENERATION_CHARS = 2 * 1024 * 1024;

/**
 * Two generations: a full current one becomes the previous one (the one before is dropped whole), so remembering is
 * bounded without per-entry bookkeeping; an answer found in the previous one moves back to the current one.
 * Keyed by a fingerprint, not by the text: a Map keyed by a fresh 2 KB string (every request body and every decision
 * read is one) hashes all of it, which costs nearly as much as the SHA-256 it would save. A slot keeps the last two
 * texts with its fingerprint (a write's old and new text often share one: same length, one word changed); a third
 * pushes out the oldest: a miss later, never a wrong answer.
 */
interface Remembered {
	content: string;
	revision: string;
	/** The text that had this slot before, if any (never itself with an older one). */
	older: Remembered | null;
}
const remembered = { current: new Map<number, Remembered>(), previous: new Map<number, Remembered>(), chars: 0 };

function remember(key: number, content: string, revision: string): void {
	if (remembered.chars + content.length > GENERATION_CHARS) {
		remembered.previous = remembered.current;
		remembered.current = new Map();
		remembered.chars = 0;
	}
	const newest = remembered.current.get(key);
	const older = newest === undefined ? null : { content: newest.content, revision: newest.revision, older: null };
	remembered.current.set(key, { content, revision, older });
	remembered.chars += content.length;
}

function answerIn(slot: Remembered | undefined, content: string): string | undefined {
	if (slot === undefined) return undefined;
	if (slot.content === content) return slot.revision;
	return slot.older !== null && slot.older.content === content ? slot.older.revision : undefined;
}

/** Characters of a text that go into its fingerprint: the head (titles and front matter differ), a tail, samples between. */
const HEAD_CHARS = 32;
const TAIL_CHARS = 16;
const SAMPLES = 32;

/**
 * A cheap 32-bit fingerprint of a text: its length and at most 80 of its characters. Texts that differ only where it
 * does not look share one; equality of the texts themselves decides every answer.
 */
function fingerprintOf(text: string): number {
	const length = text.length;
	let hash = length;
	const mix = (index: number) => (hash = Math.imul(hash ^ text.charCodeAt(index), 0x9e3779b1) ^ (hash >>> 15));
	if (length <= HEAD_CHARS + TAIL_CHARS + SAMPLES) {
		for (let index = 0; index < length; index++) mix(index);
		return hash & 0x3fff_ffff;
	}
	for (let index = 0; index < HEAD_CHARS; index++) mix(index);
	const step = (length - HEAD_CHARS - TAIL_CHARS) / SAMPLES;
	for (let sample = 0; sample < SAMPLES; sample++) mix(HEAD_CHARS + Math.floor(sample * step));
	for (let index = length - TAIL_CHARS; index < length; index++) mix(index);
	// Small enough for V8 to keep as a small integer (no boxed number per key).
	return hash & 0x3fff_ffff;
}

/** A long text's revision, remembering the last two (one write asks for its old and new text several times). */
function revisionOfLong(content: string): string {
	const known = rememberedLong(content);
	if (known !== undefined) return known;
	const revision = sha256(content);
	rememberLong(content, revision);
	return revision;
}

function rememberedLong(content: string): string | undefined {
	if (content === recentLong[0].content) return recentLong[0].revision;
	if (content === recentLong[1].content) return recentLong[1].revision;
	return undefined;
}

function rememberLong(content: string, revision: string): void {
	recentLong[1] = recentLong[0];
	recentLong[0] = { content, revision };
}

/**
 * Texts up to this long are hashed at once (about a millisecond of SHA-256, even without SHA instructions);
 * revisionInSlices hashes longer ones a slice of this size at a time.
 */
export const SLICE_CHARS = 256 * 1024;

/**
 * A text's revision, hashed a slice at a time with the host given a turn between slices, so a 5 MB note never blocks
 * it for the whole hash (tens of milliseconds on a processor without SHA instructions). The same answer as
 * revisionOf, which then remembers it.
 */
export async function revisionInSlices(content: string, yieldToHost: YieldToHost): Promise<string> {
	if (content.length <= SLICE_CHARS) return revisionOf(content);
	const known = rememberedLong(content);
	if (known !== undefined) return known;
	const hash = crypto.createHash("sha256");
	for (let start = 0; start < content.length;) {
		let end = Math.min(content.length, start + SLICE_CHARS);
		// Each slice is encoded on its own: never between the two halves of a surrogate pair.
		if (end < content.length && isHighSurrogate(content.charCodeAt(end - 1))) end++;
		hash.update(content.slice(start, end), "utf8");
		start = end;
		if (start < content.length) await yieldToHost();
	}
	const revision = hash.digest("base64url");
	rememberLong(content, revision);
	return revision;
}

function isHighSurrogate(unit: number): boolean {
	return unit >= 0xd800 && unit <= 0xdbff;
}

const recentLong: [{ content: string | null; revision: string }, { content: string | null; revision: string }] = [
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
