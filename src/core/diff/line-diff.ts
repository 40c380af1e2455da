/**
 * Line diffs between texts split into lines. Lines are interned once as integer ids (no limit on how many distinct
 * lines), and the diff itself is ./myers.ts: deterministic, bounded at any size, and able to run in slices.
 */
import { finishNow, type Steps } from "../steps";
import { LINES_PER_STEP } from "../markdown/lines";
import { markChanges, type ChangeMarks } from "./myers";

export type LineOp =
	{ kind: "equal"; lines: string[] } | { kind: "delete"; lines: string[] } | { kind: "insert"; lines: string[] };

/** Diffs two line arrays. Concatenating the equal+delete lines gives `before`; equal+insert gives `after`. */
export function diffLines(before: readonly string[], after: readonly string[]): LineOp[] {
	return finishNow(diffLinesSteps(before, after));
}

export function* diffLinesSteps(before: readonly string[], after: readonly string[]): Steps<LineOp[]> {
	const interned = yield* internLinesSteps([before, after]);
	return yield* diffInternedSteps(interned, 0, 1);
}

export { LINES_PER_STEP } from "../markdown/lines";

/** Lines of several texts as small integer ids (equal lines, equal ids), so diffs need no further string hashing. */
export interface InternedLines {
	texts: readonly (readonly string[])[];
	ids: Int32Array[];
	count: number;
}

export function internLines(texts: readonly (readonly string[])[]): InternedLines {
	return finishNow(internLinesSteps(texts));
}

export function* internLinesSteps(texts: readonly (readonly string[])[]): Steps<InternedLines> {
	const table = new Map<string, number>();
	const ids: Int32Array[] = [];
	for (const lines of texts) {
		const out = new Int32Array(lines.length);
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i]!;
			let id = table.get(line);
			if (id === undefined) {
				id = table.size;
				table.set(line, id);
			}
			out[i] = id;
			if ((i + 1) % LINES_PER_STEP === 0) yield;
		}
		ids.push(out);
	}
	return { texts, ids, count: table.size };
}

/** Diffs text `from` against text `to` of an interned set (a three-way merge interns base, mine and theirs once). */
export function diffInterned(interned: InternedLines, from: number, to: number): LineOp[] {
	return finishNow(diffInternedSteps(interned, from, to));
}

export function* diffInternedSteps(interned: InternedLines, from: number, to: number): Steps<LineOp[]> {
	const marks = yield* markChanges(interned.ids[from]!, interned.ids[to]!, interned.count);
	return yield* opsOf(marks, interned.texts[from]!, interned.texts[to]!);
}

/** Walks both sides: unmarked lines pair up in order; a run of changes is its deletions, then its insertions. */
function* opsOf(marks: ChangeMarks, before: readonly string[], after: readonly string[]): Steps<LineOp[]> {
	const ops: LineOp[] = [];
	let i = 0;
	let j = 0;
	let nextYield = LINES_PER_STEP;
	while (i < before.length || j < after.length) {
		if (i + j >= nextYield) {
			nextYield += LINES_PER_STEP;
			yield;
		}
		const start = i;
		while (i < before.length && marks.a[i]) i++;
		if (i > start) ops.push({ kind: "delete", lines: before.slice(start, i) });
		const insertStart = j;
		while (j < after.length && marks.b[j]) j++;
		if (j > insertStart) ops.push({ kind: "insert", lines: after.slice(insertStart, j) });
		const equalStart = i;
		while (i < before.length && j < after.length && !marks.a[i] && !marks.b[j]) {
			i++;
			j++;
		}
		if (i > equalStart) ops.push({ kind: "equal", lines: before.slice(equalStart, i) });
		else if (i === start && j === insertStart) throw new Error("line diff: unmatched lines left on one side");
	}
	return ops;
}
