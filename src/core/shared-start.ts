/**
 * The start that several texts share, cut off where what follows merges exactly as it does in the whole notes.
 * Judging how much of an agent's proposal a write kept (agent-outcome.ts) merges the note up to three times per
 * conflict record, and one accepted write can settle dozens of records: merging only from shortly before the first
 * change makes that cost follow the size of the changes, not of the note.
 *
 * Lines every side shares before the first change merge as stable text, but three things reach past them, and the
 * cut respects each (the tests compare with merging whole notes):
 * - the markdown rules read the structure around a change, so the cut is made only where it starts afresh: outside
 *   frontmatter and fences (recognized as the merge recognizes them), at a top-level list item or at an unindented
 *   line after a blank one, and at least CONTEXT_LINES unchanged lines before the first change;
 * - the line diff marks a line changed at once when it occurs nowhere on the other side (myers.ts), so a line after
 *   the cut that also occurs before it must occur after it in every text (`cutKeepsDiffs`);
 * - the diff's cost bound grows with the number of lines past about 65,000, so longer notes are not cut.
 */
import { closesFrontmatter, opensFrontmatter } from "./markdown/frontmatter";
import { lineCount, splitLines } from "./markdown/lines";
import { fenceCloser, isBlank, isItemStart } from "./merge/markdown";

/** Unchanged lines always kept before the first change, so every rule sees the same neighbourhood. */
const CONTEXT_LINES = 8;
/** Below this many lines on both sides of a diff together, its cost bound does not depend on their number. */
const MAX_DIFFED_LINES = 65_000;

/** Where `texts` may all be cut for their merges (a character offset, the same in each; 0 when nowhere). */
export function sharedStartCut(texts: readonly string[]): number {
	const shared = commonPrefixLength(texts);
	if (shared === 0) return 0;
	const text = texts[0]!;
	// Only lines that end before the first difference are shared whole.
	const sharedLinesEnd = text.lastIndexOf("\n", shared - 1) + 1;
	const limit = startOfLineBefore(text, sharedLinesEnd, CONTEXT_LINES);
	if (limit <= 0) return 0;
	const cut =
		text.includes("```") || text.includes("~~~") || opensFrontmatter(lineAt(text, 0))
			? forwardCut(text, limit)
			: backwardCut(text, limit);
	return cut > 0 && cutKeepsDiffs(texts, cut) ? cut : 0;
}

/**
 * Whether texts cut at `cut` diff as the whole ones do: every line after the cut that also occurs before it occurs
 * after it in each text, and no diff is long enough for its cost bound to change.
 */
export function cutKeepsDiffs(texts: readonly string[], cut: number): boolean {
	// The merge sees the first line without its byte-order mark.
	const before = texts[0]!.slice(0, cut).replace(/^\uFEFF/, "");
	const afterLines = texts.map((text) => splitLines(text.slice(cut)));
	if (2 * (lineCount(before) + Math.max(...afterLines.map((lines) => lines.length))) >= MAX_DIFFED_LINES) return false;
	const after = afterLines.map((lines) => new Set(lines));
	const everyLineAfter = new Set<string>();
	for (const lines of after) for (const line of lines) everyLineAfter.add(line);
	for (const line of everyLineAfter) {
		// Every line before the cut ends with its line break, so one without cannot be among them.
		if (!line.endsWith("\n") || !(before.startsWith(line) || before.includes("\n" + line))) continue;
		if (after.some((lines) => !lines.has(line))) return false;
	}
	return true;
}

/** Without fences or frontmatter there is no state to carry: the nearest place is looked for backwards from the limit. */
function backwardCut(text: string, limit: number): number {
	for (let start = limit; start > 0; start = previousLineStart(text, start)) {
		if (isCut(lineAt(text, start), isBlank(lineAt(text, previousLineStart(text, start))))) return start;
	}
	return 0;
}

/** The last cut at or before `limit`, reading from the start of the note (frontmatter and fences carry state). */
function forwardCut(text: string, limit: number): number {
	let cut = 0;
	let closer: RegExp | null = null;
	let inFrontmatter = false;
	let previousBlank = false;
	for (let start = 0; start <= limit;) {
		// The merge sees the first line without its byte-order mark.
		const line = start === 0 ? lineAt(text, 0).replace(/^\uFEFF/, "") : lineAt(text, start);
		if (start === 0 && opensFrontmatter(line)) inFrontmatter = true;
		else if (inFrontmatter) {
			if (closesFrontmatter(line)) inFrontmatter = false;
		} else if (closer !== null) {
			if (closer.test(line.replace(/\r?\n$/, ""))) closer = null;
		} else {
			closer = fenceCloser(line);
			if (closer === null && start > 0 && isCut(line, previousBlank)) cut = start;
		}
		previousBlank = isBlank(line);
		const next = text.indexOf("\n", start);
		if (next === -1) break;
		start = next + 1;
	}
	// A note whose frontmatter never closes is merged as a note without frontmatter: cut nowhere, to be sure.
	return inFrontmatter ? 0 : cut;
}

/** Whether a cut may be made before `line` (outside fences and frontmatter). */
function isCut(line: string, previousBlank: boolean): boolean {
	if (opensFrontmatter(line)) return false;
	// At the top level only (an indented item continues the list above it), as the merge reads items and blank lines.
	if (/^[ \t]/.test(line)) return false;
	return isItemStart(line) || (previousBlank && !isBlank(line));
}

/** The line starting at `start`, with its terminator. */
function lineAt(text: string, start: number): string {
	const newline = text.indexOf("\n", start);
	return text.slice(start, newline === -1 ? text.length : newline + 1);
}

/** The start of the line `count` lines before the one starting at `end` (0 when there are not that many). */
function startOfLineBefore(text: string, end: number, count: number): number {
	let start = end;
	for (let line = 0; line < count; line++) {
		if (start <= 0) return 0;
		start = previousLineStart(text, start);
	}
	return start;
}

/** The start of the line before the one starting at `start` (> 0). */
function previousLineStart(text: string, start: number): number {
	return start < 2 ? 0 : text.lastIndexOf("\n", start - 2) + 1;
}

function commonPrefixLength(texts: readonly string[]): number {
	let length = Math.min(...texts.map((text) => text.length));
	const first = texts[0]!;
	for (const other of texts.slice(1)) {
		let same = 0;
		// Compared a block at a time (a native comparison), then character by character within the first block that differs.
		while (same + BLOCK <= length && first.substring(same, same + BLOCK) === other.substring(same, same + BLOCK))
			same += BLOCK;
		while (same < length && first.charCodeAt(same) === other.charCodeAt(same)) same++;
		length = same;
	}
	return length;
}

const BLOCK = 256;
