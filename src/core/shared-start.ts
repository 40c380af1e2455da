/**
 * The start that several texts share, cut off where what follows can be merged on its own. Judging how much of an
 * agent's proposal a write kept (agent-outcome.ts) merges the note up to three times per conflict record, and one
 * accepted write can settle dozens of records: merging only from shortly before the first change makes that cost
 * follow the size of the changes, not of the note.
 *
 * The merges treat lines every side shares before the first change as stable, but the markdown rules read the
 * structure around a change (frontmatter, fences, list items), so the cut is made only where that structure starts
 * afresh: outside frontmatter and fences, at a top-level list item or at an unindented line after a blank one,
 * and at least CONTEXT_LINES unchanged lines before the first change.
 */

/** Unchanged lines always kept before the first change, so every rule sees the same neighbourhood. */
const CONTEXT_LINES = 8;

/** Sticky patterns, tried at a line's start in place (no copy of each line). */
const FENCE = /[ \t]*(`{3,}|~{3,})/y;
const FENCE_CLOSER = /[ \t]*(`{3,}|~{3,})[ \t]*\r?(\n|$)/y;
const ITEM_START = /(?:[-*+]|\d{1,9}[.)])[ \t]/y;
const BLANK = /[ \t]*\r?(\n|$)/y;
const DASHES = /---\r?(\n|$)/y;
const DOTS = /\.\.\.\r?(\n|$)/y;

/** Where `texts` may all be cut (a character offset, the same in each, 0 when nowhere). */
export function sharedStartCut(texts: readonly string[]): number {
	const shared = commonPrefixLength(texts);
	if (shared === 0) return 0;
	const text = texts[0]!;
	// Only lines that end before the first difference are shared whole.
	const sharedLinesEnd = text.lastIndexOf("\n", shared - 1) + 1;
	const limit = startOfLineBefore(text, sharedLinesEnd, CONTEXT_LINES);
	if (limit <= 0) return 0;
	const first = text.charCodeAt(0) === 0xfeff ? 1 : 0;
	// Without fences or frontmatter before the limit there is no state to carry: the nearest place is looked for
	// backwards from there (a few lines), not by reading the note from its start.
	if (at(DASHES, text, first) || text.lastIndexOf("```", limit) !== -1 || text.lastIndexOf("~~~", limit) !== -1) return forwardCut(text, first, limit);
	for (let start = limit; start > first; start = previousLineStart(text, start)) {
		if (isCut(text, start, at(BLANK, text, previousLineStart(text, start)))) return start;
	}
	return 0;
}

/** Whether a cut may be made before the line at `start` (outside fences and frontmatter). */
function isCut(text: string, start: number, previousBlank: boolean): boolean {
	if (at(DASHES, text, start)) return false;
	return at(ITEM_START, text, start) || (previousBlank && !at(BLANK, text, start) && !isIndented(text, start));
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

/** The last cut at or before `limit`, reading from the start of the note (frontmatter and fences carry state). */
function forwardCut(text: string, first: number, limit: number): number {
	let cut = 0;
	let fence: string | null = null;
	let inFrontmatter = false;
	let previousBlank = false;
	for (let start = first, index = 0; start <= limit; index++) {
		const newline = text.indexOf("\n", start);
		const end = newline === -1 ? text.length : newline + 1;
		const blank = at(BLANK, text, start);
		if (index === 0 && at(DASHES, text, start)) inFrontmatter = true;
		else if (inFrontmatter) {
			if (at(DASHES, text, start) || at(DOTS, text, start)) inFrontmatter = false;
		} else if (fence !== null) {
			if (closesFence(text, start, fence)) fence = null;
		} else if (at(FENCE, text, start)) {
			FENCE.lastIndex = start;
			fence = FENCE.exec(text)![1]!;
		} else if (index > 0 && isCut(text, start, previousBlank)) {
			cut = start;
		}
		previousBlank = blank;
		if (newline === -1) break;
		start = end;
	}
	return cut;
}

function at(pattern: RegExp, text: string, index: number): boolean {
	pattern.lastIndex = index;
	return pattern.test(text);
}

function isIndented(text: string, index: number): boolean {
	const first = text.charCodeAt(index);
	return first === 0x20 || first === 0x09;
}

function closesFence(text: string, start: number, opener: string): boolean {
	FENCE_CLOSER.lastIndex = start;
	const closer = FENCE_CLOSER.exec(text);
	return closer !== null && closer[1]![0] === opener[0] && closer[1]!.length >= opener.length;
}

function commonPrefixLength(texts: readonly string[]): number {
	let length = Math.min(...texts.map((text) => text.length));
	const first = texts[0]!;
	for (const other of texts.slice(1)) {
		let same = 0;
		// Compared a block at a time (a native comparison), then character by character within the first block that differs.
		while (same + BLOCK <= length && first.substring(same, same + BLOCK) === other.substring(same, same + BLOCK)) same += BLOCK;
		while (same < length && first.charCodeAt(same) === other.charCodeAt(same)) same++;
		length = same;
	}
	return length;
}

const BLOCK = 256;
