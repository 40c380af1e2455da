/** Unified diffs (the `diff -u` / `git diff` text format) between two versions of a note. */
import { finishNow, type Steps } from "../steps";
import { diffLinesSteps, LINES_PER_STEP, type LineOp } from "./line-diff";
import { splitLines } from "../markdown/lines";

export interface UnifiedDiffOptions {
	fromLabel?: string;
	toLabel?: string;
	context?: number;
}

/** Returns "" when the texts are equal. */
export function unifiedDiff(before: string, after: string, options: UnifiedDiffOptions = {}): string {
	return finishNow(unifiedDiffLines(before, after, options)).join("");
}

/** The diff's lines (each with its own "\n"), header first; none when the texts are equal. */
export function* unifiedDiffLines(before: string, after: string, options: UnifiedDiffOptions = {}): Steps<string[]> {
	if (before === after) return [];
	const beforeLines = splitLines(before);
	yield;
	const afterLines = splitLines(after);
	yield;
	const ops = yield* diffLinesSteps(beforeLines, afterLines);
	yield;
	const out = [`--- ${options.fromLabel ?? "a"}\n`, `+++ ${options.toLabel ?? "b"}\n`];
	yield* writeHunks(ops, options.context ?? 3, out);
	return out;
}

const EQUAL = 0;
const DELETE = 1;
const INSERT = 2;
const PREFIX = [" ", "-", "+"] as const;

/** Groups the changes with `context` equal lines around them into hunks, and writes them to `out`. */
function* writeHunks(ops: readonly LineOp[], context: number, out: string[]): Steps<void> {
	// Flattened once: line i has a tag and its 1-based line numbers in the old and new text.
	const lines: string[] = [];
	const tags: number[] = [];
	for (const op of ops) {
		const tag = op.kind === "equal" ? EQUAL : op.kind === "delete" ? DELETE : INSERT;
		for (const line of op.lines) {
			lines.push(line);
			tags.push(tag);
			if (lines.length % LINES_PER_STEP === 0) yield;
		}
	}
	const oldNo = new Int32Array(lines.length + 1);
	const newNo = new Int32Array(lines.length + 1);
	oldNo[0] = 1;
	newNo[0] = 1;
	for (let i = 0; i < lines.length; i++) {
		oldNo[i + 1] = oldNo[i]! + (tags[i] === INSERT ? 0 : 1);
		newNo[i + 1] = newNo[i]! + (tags[i] === DELETE ? 0 : 1);
	}
	yield;
	for (const [start, end] of hunkRanges(tags, context)) {
		out.push(
			`@@ -${range(oldNo[start]!, oldNo[end + 1]! - oldNo[start]!)} +${range(newNo[start]!, newNo[end + 1]! - newNo[start]!)} @@\n`,
		);
		for (let k = start; k <= end; k++) {
			render(out, PREFIX[tags[k]!]!, lines[k]!);
			if ((k + 1) % LINES_PER_STEP === 0) yield;
		}
	}
}

/** Each hunk's first and last line (inclusive): changes with `context` equal lines around them, close ones joined. */
function hunkRanges(tags: readonly number[], context: number): [number, number][] {
	const ranges: [number, number][] = [];
	let start = -1;
	let lastChange = -1;
	for (let index = 0; index < tags.length; index++) {
		if (tags[index] === EQUAL) continue;
		const from = Math.max(index - context, 0);
		if (start !== -1 && from > lastChange + context + 1) {
			ranges.push([start, Math.min(lastChange + context, tags.length - 1)]);
			start = -1;
		}
		if (start === -1) start = from;
		lastChange = index;
	}
	if (start !== -1) ranges.push([start, Math.min(lastChange + context, tags.length - 1)]);
	return ranges;
}

function range(start: number, count: number): string {
	// Unified-diff convention: an empty range names the line before it.
	const shown = count === 0 ? start - 1 : start;
	return count === 1 ? `${shown}` : `${shown},${count}`;
}

function render(out: string[], prefix: string, line: string): void {
	if (line.endsWith("\n")) out.push(prefix + line);
	else {
		out.push(`${prefix}${line}\n`);
		out.push("\\ No newline at end of file\n");
	}
}
