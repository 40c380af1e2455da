/**
 * Word-level diff for highlighting changes inside conflicting or auto-merged lines. Only for display: merge
 * decisions are made on whole lines.
 *
 * diff-match-patch works on UTF-16 code units and can cut an emoji's surrogate pair in two. We diff tokens instead
 * (words, spaces, single grapheme clusters) mapped to one private code unit each, as line-diff does for lines, so
 * every piece of the result is a whole token.
 */
import DiffMatchPatch from "diff-match-patch";

export type WordOp = { kind: "equal" | "delete" | "insert"; text: string };

/** Code units usable as token codes: the BMP minus NUL and the surrogate block. */
const MAX_CODES = 0xffff - 0x800 - 1;

const segmenter =
	typeof Intl !== "undefined" && "Segmenter" in Intl ? new Intl.Segmenter(undefined, { granularity: "word" }) : null;

/** Words, runs of spaces and single grapheme clusters (an emoji with its modifiers stays one token). */
export function tokenize(text: string): string[] {
	if (segmenter) return Array.from(segmenter.segment(text), (part) => part.segment);
	// Without Intl.Segmenter: letters/digits runs, whitespace runs, else one code point (the u flag keeps pairs whole).
	return text.match(/[\p{L}\p{N}\p{M}_]+|\s+|[\s\S]/gu) ?? [];
}

function codeFor(index: number): string {
	const unit = index + 1;
	return String.fromCharCode(unit < 0xd800 ? unit : unit + 0x800);
}

/** Concatenating equal+delete texts gives `a`; equal+insert gives `b`. */
export function wordDiff(a: string, b: string, timeoutSeconds = 0.1): WordOp[] {
	if (a === b) return a === "" ? [] : [{ kind: "equal", text: a }];
	const left = tokenize(a);
	const right = tokenize(b);
	const codes = new Map<string, string>();
	for (const token of [...left, ...right]) {
		if (codes.has(token)) continue;
		if (codes.size >= MAX_CODES) return replaceAll(a, b);
		codes.set(token, codeFor(codes.size));
	}
	const encode = (tokens: string[]) => tokens.map((token) => codes.get(token) ?? "").join("");
	const dmp = new DiffMatchPatch();
	dmp.Diff_Timeout = timeoutSeconds;
	const diffs = dmp.diff_main(encode(left), encode(right), false);
	// Merges tiny equalities (a lone space between two changed words) so highlights read as phrases.
	dmp.diff_cleanupSemantic(diffs);

	const ops: WordOp[] = [];
	let i = 0;
	let j = 0;
	for (const [op, text] of diffs) {
		const n = text.length;
		if (op === 0) {
			push(ops, "equal", left.slice(i, i + n).join(""));
			i += n;
			j += n;
		} else if (op === -1) {
			push(ops, "delete", left.slice(i, i + n).join(""));
			i += n;
		} else {
			push(ops, "insert", right.slice(j, j + n).join(""));
			j += n;
		}
	}
	return ops;
}

/** Too many distinct tokens to encode (a huge paste): one honest, coarse change. */
function replaceAll(a: string, b: string): WordOp[] {
	const ops: WordOp[] = [];
	push(ops, "delete", a);
	push(ops, "insert", b);
	return ops;
}

function push(ops: WordOp[], kind: WordOp["kind"], text: string): void {
	if (text === "") return;
	const last = ops[ops.length - 1];
	if (last && last.kind === kind) last.text += text;
	else ops.push({ kind, text });
}
