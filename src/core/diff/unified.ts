/** Unified diffs (the `diff -u` / `git diff` text format) between two versions of a note. */
import { diffLines, type LineOp } from "./line-diff";
import { splitLines } from "./lines";

export interface UnifiedDiffOptions {
	fromLabel?: string;
	toLabel?: string;
	context?: number;
}

interface Hunk {
	oldStart: number;
	newStart: number;
	lines: string[];
	oldCount: number;
	newCount: number;
}

/** Returns "" when the texts are equal. */
export function unifiedDiff(before: string, after: string, options: UnifiedDiffOptions = {}): string {
	if (before === after) return "";
	const context = options.context ?? 3;
	const ops = diffLines(splitLines(before), splitLines(after));
	const hunks = buildHunks(ops, context);
	const out = [`--- ${options.fromLabel ?? "a"}\n`, `+++ ${options.toLabel ?? "b"}\n`];
	for (const hunk of hunks) {
		out.push(`@@ -${range(hunk.oldStart, hunk.oldCount)} +${range(hunk.newStart, hunk.newCount)} @@\n`);
		out.push(...hunk.lines);
	}
	return out.join("");
}

function range(start: number, count: number): string {
	// Unified-diff convention: an empty range names the line before it.
	const shown = count === 0 ? start - 1 : start;
	return count === 1 ? `${shown}` : `${shown},${count}`;
}

function render(prefix: string, line: string): string {
	return line.endsWith("\n") ? prefix + line : `${prefix}${line}\n\\ No newline at end of file\n`;
}

/** Flattens ops to tagged lines, then groups changes with `context` equal lines around them. */
function buildHunks(ops: LineOp[], context: number): Hunk[] {
	type Tagged = { tag: " " | "-" | "+"; line: string; oldNo: number; newNo: number };
	const tagged: Tagged[] = [];
	let oldNo = 1;
	let newNo = 1;
	for (const op of ops) {
		for (const line of op.lines) {
			const tag = op.kind === "equal" ? " " : op.kind === "delete" ? "-" : "+";
			tagged.push({ tag, line, oldNo, newNo });
			if (tag !== "+") oldNo++;
			if (tag !== "-") newNo++;
		}
	}
	const hunks: Hunk[] = [];
	let current: Hunk | null = null;
	let lastChange = -Infinity;
	for (let index = 0; index < tagged.length; index++) {
		const entry = tagged[index]!;
		if (entry.tag === " ") continue;
		const from = Math.max(index - context, 0);
		if (!current || from > lastChange + context + 1) {
			if (current) closeHunk(current, tagged, lastChange, context);
			current = { oldStart: tagged[from]!.oldNo, newStart: tagged[from]!.newNo, lines: [], oldCount: 0, newCount: 0 };
			appendRange(current, tagged, from, index);
		} else {
			appendRange(current, tagged, lastChange + 1, index);
		}
		lastChange = index;
	}
	if (current) closeHunk(current, tagged, lastChange, context);
	return hunks;

	function appendRange(hunk: Hunk, all: Tagged[], from: number, to: number): void {
		for (let k = from; k <= to; k++) {
			const t = all[k]!;
			hunk.lines.push(render(t.tag, t.line));
			if (t.tag !== "+") hunk.oldCount++;
			if (t.tag !== "-") hunk.newCount++;
		}
	}
	function closeHunk(hunk: Hunk, all: Tagged[], last: number, ctx: number): void {
		appendRange(hunk, all, last + 1, Math.min(last + ctx, all.length - 1));
		hunks.push(hunk);
	}
}
