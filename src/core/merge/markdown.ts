/** The markdown structure the merge rules need, read line by line: fenced code blocks and list items. */
import { finishNow, type Steps } from "../steps";

/** A bullet (-, +, *) or ordered (1. / 1)) list marker followed by a space or the end of the line; tasks are items too. */
const ITEM_START = /^[ \t]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
/** `* * *`, `---` and friends are thematic breaks, not list items. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** Fence openers are matched at any indent: treating too much as code only adds conflicts, never hides one. */
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;

export interface Fence {
	/** First line (the opening fence). */
	start: number;
	/** One past the closing fence line, or the line count when the fence never closes. */
	end: number;
	closed: boolean;
}

export interface BaseStructure {
	fences: Fence[];
	/** Per line: index into `fences`, or -1 outside code. */
	fenceOf: Int32Array;
	/** Per line: 1 when the line starts a list item (outside code). */
	itemStart: Uint8Array;
	/** Per line: 1 when the line belongs to a list item: its first line or an indented continuation. */
	inItem: Uint8Array;
	/** Per line: which list (a run of items not broken by a paragraph or code) the item line belongs to, else -1. */
	listOf: Int32Array;
}

function content(line: string): string {
	return line.replace(/\r?\n$/, "");
}

export function isItemStart(line: string): boolean {
	const text = content(line);
	return ITEM_START.test(text) && !THEMATIC_BREAK.test(text);
}

export function isBlank(line: string): boolean {
	return content(line).trim() === "";
}

function isIndented(line: string): boolean {
	return /^[ \t]/.test(line) && !isBlank(line);
}

/** A line that can only belong to a list: an item or an indented continuation. */
export function isListish(line: string): boolean {
	return isItemStart(line) || isIndented(line);
}

/** Returns the closing-fence matcher for an opening fence line, or null when the line opens no fence. */
export function fenceCloser(line: string): RegExp | null {
	const match = FENCE_OPEN.exec(content(line));
	if (!match) return null;
	const marker = match[1] ?? "";
	// A backtick fence's info string may not contain backticks (CommonMark), else it is inline code.
	if (marker.startsWith("`") && (match[2] ?? "").includes("`")) return null;
	return new RegExp(`^[ \\t]*${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*$`);
}

/** One linear pass over the base lines. */
export function analyzeBase(lines: readonly string[]): BaseStructure {
	return finishNow(analyzeBaseSteps(lines));
}

/** Lines analyzed between two yields: each is run past a few regexes, so fewer than the plain passes take. */
const ANALYZED_LINES_PER_STEP = 4096;

/** The same pass, yielding every few thousand lines: a 5 MB base has tens of thousands. */
export function* analyzeBaseSteps(lines: readonly string[]): Steps<BaseStructure> {
	const n = lines.length;
	const fences: Fence[] = [];
	const fenceOf = new Int32Array(n).fill(-1);
	const itemStart = new Uint8Array(n);
	const inItem = new Uint8Array(n);
	const listOf = new Int32Array(n).fill(-1);
	let lists = 0;
	let closer: RegExp | null = null;
	let inList = false;
	for (let i = 0; i < n; i++) {
		if (i > 0 && i % ANALYZED_LINES_PER_STEP === 0) yield;
		const line = lines[i] ?? "";
		if (closer) {
			const fence = fences[fences.length - 1]!;
			fenceOf[i] = fences.length - 1;
			if (closer.test(content(line))) {
				closer = null;
				fence.end = i + 1;
				fence.closed = true;
			}
			continue;
		}
		closer = fenceCloser(line);
		if (closer) {
			fences.push({ start: i, end: n, closed: false });
			fenceOf[i] = fences.length - 1;
			// Code inside an item is not an item boundary we can reason about; restart list tracking after it.
			inList = false;
			continue;
		}
		if (isItemStart(line)) {
			if (!inList) lists++;
			itemStart[i] = 1;
			inItem[i] = 1;
			listOf[i] = lists - 1;
			inList = true;
		} else if (isIndented(line) && inList) {
			inItem[i] = 1;
			listOf[i] = lists - 1;
		} else if (!isBlank(line)) {
			// A lazy continuation or a paragraph: not provably part of an item, so no list rule applies to it.
			inList = false;
		}
	}
	return { fences, fenceOf, itemStart, inItem, listOf };
}

/** No fences and no items: only git's rules apply (used where markdown rules make no sense, like frontmatter). */
export function plainStructure(n: number): BaseStructure {
	return {
		fences: [],
		fenceOf: new Int32Array(n).fill(-1),
		itemStart: new Uint8Array(n),
		inItem: new Uint8Array(n),
		listOf: new Int32Array(n).fill(-1),
	};
}

/** Length of the line's leading spaces and tabs. */
function indentLength(line: string): number {
	let i = 0;
	while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
	return i;
}

function indentOf(line: string): string {
	return line.slice(0, indentLength(line));
}

/**
 * The indents a side's replacement of base lines [from, to) moves list lines away from: a line of the replaced items
 * comes back with the same text at another indent (a nesting change). Null when it re-indents nothing. Linear.
 */
export function abandonedIndents(
	base: readonly string[],
	from: number,
	to: number,
	side: readonly string[],
	sideFrom: number,
	sideTo: number,
	structure: BaseStructure,
): Set<string> | null {
	if (from === to || sideFrom === sideTo || (!someIndented(base, from, to) && !someIndented(side, sideFrom, sideTo)))
		return null;
	let abandoned: Set<string> | null = null;
	// Most hunks are a line or two: compare them pairwise rather than build maps (same answer as below).
	// (Item lines are never blank: analyzeBase marks only items and indented non-blank continuations.)
	if ((to - from) * (sideTo - sideFrom) <= 16) {
		for (let j = sideFrom; j < sideTo; j++) {
			const line = side[j] ?? "";
			const text = line.slice(indentLength(line));
			let was: string | null = null;
			for (let i = from; i < to; i++) {
				const original = base[i] ?? "";
				if (structure.inItem[i] !== 1) continue;
				if (original === line) {
					was = null;
					break;
				}
				if (was === null && original.length - text.length === indentLength(original) && original.endsWith(text))
					was = indentOf(original);
			}
			if (was !== null) (abandoned ??= new Set()).add(was);
		}
		return abandoned;
	}
	const indentByText = new Map<string, string>();
	const placed = new Set<string>();
	for (let i = from; i < to; i++) {
		const line = base[i] ?? "";
		if (structure.inItem[i] !== 1) continue;
		const indent = indentOf(line);
		if (!indentByText.has(line.slice(indent.length))) indentByText.set(line.slice(indent.length), indent);
		placed.add(line);
	}
	if (placed.size === 0) return null;
	for (let j = sideFrom; j < sideTo; j++) {
		const line = side[j] ?? "";
		const was = indentByText.get(line.slice(indentLength(line)));
		if (was !== undefined && !placed.has(line)) (abandoned ??= new Set()).add(was);
	}
	return abandoned;
}

/** Any line in [from, to) starts with a space or a tab: without one, no line can have moved to another indent. */
function someIndented(lines: readonly string[], from: number, to: number): boolean {
	for (let i = from; i < to; i++) if (indentLength(lines[i] ?? "") > 0) return true;
	return false;
}

/** Whether `line` opens a code block exactly as `opener` does (same indent and marker), differing at most in its info string. */
export function sameFenceOpening(opener: string, line: string): boolean {
	const a = FENCE_OPEN.exec(content(opener));
	const b = FENCE_OPEN.exec(content(line));
	if (!a || !b || fenceCloser(line) === null) return false;
	return markerPart(a) === markerPart(b);
}

/** The opening fence up to the end of its marker (indent included), without the info string. */
function markerPart(match: RegExpExecArray): string {
	return match[0].slice(0, match[0].length - (match[2] ?? "").length);
}
