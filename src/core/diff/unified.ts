/** Unified diffs (the `diff -u` / `git diff` text format) between two versions of a note. */
import { finishNow, type Steps } from "../steps";
import { diffLinesSteps, type LineOp } from "./line-diff";
import { splitLines } from "./lines";

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
	const ops = yield* diffLinesSteps(splitLines(before), splitLines(after));
	yield;
	const out = [`--- ${options.fromLabel ?? "a"}\n`, `+++ ${options.toLabel ?? "b"}\n`];
	writeHunks(ops, options.context ?? 3, out);
	return out;
}

const EQUAL = 0;
const DELETE = 1;
const INSERT = 2;
const PREFIX = [" ", "-", "+"] as const;

/** Groups the changes with `context` equal lines around them into hunks, and writes them to `out`. */
function writeHunks(ops: readonly LineOp[], context: number, out: string[]): void {
	// Flattened once: line i has a tag and its 1-based line numbers in the old and new text.
	const lines: string[] = [];
	const tags: number[] = [];
	for (const op of ops) {
		const tag = op.kind === "equal" ? EQUAL : op.kind === "delete" ? DELETE : INSERT;
		for (const line of op.lines) {
			lines.push(line);
			tags.push(tag);
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
	let hunkStart = -1;
	let lastChange = -1;
	const close = () => {
		const end = Math.min(lastChange + context, lines.length - 1);
		const oldCount = oldNo[end + 1]! - oldNo[hunkStart]!;
		const newCount = newNo[end + 1]! - newNo[hunkStart]!;
		out.push(`@@ -${range(oldNo[hunkStart]!, oldCount)} +${range(newNo[hunkStart]!, newCount)} @@\n`);
		for (let k = hunkStart; k <= end; k++) render(out, PREFIX[tags[k]!]!, lines[k]!);
	};
	for (let index = 0; index < lines.length; index++) {
		if (tags[index] === EQUAL) continue;
		const from = Math.max(index - context, 0);
		if (hunkStart === -1) hunkStart = from;
		else if (from > lastChange + context + 1) {
			close();
			hunkStart = from;
		}
		lastChange = index;
	}
	if (hunkStart !== -1) close();
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
