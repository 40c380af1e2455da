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

function unitFor(index: number): number {
	const unit = index + 1; // skip NUL
	return unit < 0xd800 ? unit : unit + 0x800;
}

export interface LineDiffOptions {
	/** Seconds diff-match-patch may spend before settling for a valid but less minimal diff. */
	timeoutSeconds?: number;
}

/** Diffs two line arrays. Concatenating the equal+delete lines gives `before`; equal+insert gives `after`. */
export function diffLines(before: readonly string[], after: readonly string[], options: LineDiffOptions = {}): LineOp[] {
	const interned = internLines([before, after]);
	return diffInterned(interned, 0, 1, options);
}

/** Lines of several texts as small integer ids (equal lines, equal ids), so diffs need no further string hashing. */
export interface InternedLines {
	texts: readonly (readonly string[])[];
	ids: Int32Array[];
	count: number;
}

export function internLines(texts: readonly (readonly string[])[]): InternedLines {
	const table = new Map<string, number>();
	const ids = texts.map((lines) => {
		const out = new Int32Array(lines.length);
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i]!;
			let id = table.get(line);
			if (id === undefined) {
				id = table.size;
				table.set(line, id);
			}
			out[i] = id;
		}
		return out;
	});
	return { texts, ids, count: table.size };
}

/** Diffs text `from` against text `to` of an interned set (a three-way merge interns base, mine and theirs once). */
export function diffInterned(interned: InternedLines, from: number, to: number, options: LineDiffOptions = {}): LineOp[] {
	const before = interned.texts[from]!;
	const after = interned.texts[to]!;
	const a = interned.ids[from]!;
	const b = interned.ids[to]!;
	const inAfter = new Uint8Array(interned.count);
	for (const id of b) inAfter[id] = 1;
	const code = new Int32Array(interned.count).fill(-1);
	let next = 0;
	for (const id of a) if (inAfter[id] === 1 && code[id] === -1) code[id] = next++;
	if (next + 2 > MAX_CODES) return replaceAll(before, after);
	const onlyBefore = next++;
	const onlyAfter = next++;

	const dmp = new DiffMatchPatch();
	dmp.Diff_Timeout = options.timeoutSeconds ?? 1;
	const diffs = dmp.diff_main(encode(a, code, onlyBefore), encode(b, code, onlyAfter), false);

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

/** One UTF-16 unit per line, built in chunks (String.fromCharCode takes a bounded number of arguments). */
function encode(ids: Int32Array, code: Int32Array, lone: number): string {
	const units = new Uint16Array(ids.length);
	for (let i = 0; i < ids.length; i++) {
		const c = code[ids[i]!]!;
		units[i] = unitFor(c === -1 ? lone : c);
	}
	let text = "";
	for (let start = 0; start < units.length; start += 8192) {
		text += String.fromCharCode(...units.subarray(start, start + 8192));
	}
	return text;
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
	if (last && last.kind === kind) {
		for (const line of lines) last.lines.push(line);
	} else ops.push({ kind, lines });
}
