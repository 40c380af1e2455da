/**
 * Line-level diff built on diff-match-patch.
 *
 * diff-match-patch diffs characters; its own line mode maps each distinct line to one UTF-16 code unit and
 * breaks past ~65k distinct lines. We intern lines ourselves instead: only lines that occur on BOTH sides need
 * distinct codes (a line found on one side only can never match anything, so all such lines share one code per
 * side). Decoding walks positions rather than codes, so shared codes are harmless. Codes avoid the surrogate
 * range, so diff-match-patch never splits a code in two.
 */
import DiffMatchPatch from "diff-match-patch";

export type LineOp =
	| { kind: "equal"; lines: string[] }
	| { kind: "delete"; lines: string[] }
	| { kind: "insert"; lines: string[] };

/** Code units usable as line codes: the BMP minus NUL and the surrogate block. */
const MAX_CODES = 0xffff - 0x800 - 1;

function codeFor(index: number): string {
	const unit = index + 1; // skip NUL
	return String.fromCharCode(unit < 0xd800 ? unit : unit + 0x800);
}

export interface LineDiffOptions {
	/** Seconds diff-match-patch may spend before settling for a valid but less minimal diff. */
	timeoutSeconds?: number;
}

/** Diffs two line arrays. Concatenating the equal+delete lines gives `before`; equal+insert gives `after`. */
export function diffLines(before: readonly string[], after: readonly string[], options: LineDiffOptions = {}): LineOp[] {
	const inAfter = new Set(after);
	const shared = new Map<string, string>();
	for (const line of before) {
		if (inAfter.has(line) && !shared.has(line)) shared.set(line, "");
	}
	if (shared.size + 2 > MAX_CODES) return replaceAll(before, after);
	let next = 0;
	for (const line of shared.keys()) shared.set(line, codeFor(next++));
	const onlyBefore = codeFor(next++);
	const onlyAfter = codeFor(next++);
	const encode = (lines: readonly string[], lone: string) => lines.map((line) => shared.get(line) ?? lone).join("");

	const dmp = new DiffMatchPatch();
	dmp.Diff_Timeout = options.timeoutSeconds ?? 1;
	const diffs = dmp.diff_main(encode(before, onlyBefore), encode(after, onlyAfter), false);

	const ops: LineOp[] = [];
	let i = 0;
	let j = 0;
	for (const [op, codes] of diffs) {
		const n = codes.length;
		if (op === 0) {
			push(ops, "equal", before.slice(i, i + n));
			i += n;
			j += n;
		} else if (op === -1) {
			push(ops, "delete", before.slice(i, i + n));
			i += n;
		} else {
			push(ops, "insert", after.slice(j, j + n));
			j += n;
		}
	}
	return ops;
}

/** Conservative fallback when the inputs share more distinct lines than we can encode: a valid, non-minimal diff. */
function replaceAll(before: readonly string[], after: readonly string[]): LineOp[] {
	let prefix = 0;
	while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
	let suffix = 0;
	while (
		suffix < before.length - prefix &&
		suffix < after.length - prefix &&
		before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
	) suffix++;
	const ops: LineOp[] = [];
	push(ops, "equal", before.slice(0, prefix));
	push(ops, "delete", before.slice(prefix, before.length - suffix));
	push(ops, "insert", after.slice(prefix, after.length - suffix));
	push(ops, "equal", before.slice(before.length - suffix));
	return ops;
}

function push(ops: LineOp[], kind: LineOp["kind"], lines: string[]): void {
	if (lines.length === 0) return;
	const last = ops[ops.length - 1];
	if (last && last.kind === kind) last.lines.push(...lines);
	else ops.push({ kind, lines });
}
