/** The markdown structure the merge rules need, read line by line: fenced code blocks and list items. */

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
function fenceCloser(line: string): RegExp | null {
	const match = FENCE_OPEN.exec(content(line));
	if (!match) return null;
	const marker = match[1] ?? "";
	// A backtick fence's info string may not contain backticks (CommonMark), else it is inline code.
	if (marker.startsWith("`") && (match[2] ?? "").includes("`")) return null;
	return new RegExp(`^[ \\t]*${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*$`);
}

/** One linear pass over the base lines. */
export function analyzeBase(lines: readonly string[]): BaseStructure {
	const n = lines.length;
	const fences: Fence[] = [];
	const fenceOf = new Int32Array(n).fill(-1);
	const itemStart = new Uint8Array(n);
	const inItem = new Uint8Array(n);
	let closer: RegExp | null = null;
	let inList = false;
	for (let i = 0; i < n; i++) {
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
			itemStart[i] = 1;
			inItem[i] = 1;
			inList = true;
		} else if (isIndented(line) && inList) {
			inItem[i] = 1;
		} else if (!isBlank(line)) {
			// A lazy continuation or a paragraph: not provably part of an item, so no list rule applies to it.
			inList = false;
		}
	}
	return { fences, fenceOf, itemStart, inItem };
}

/** No fences and no items: only git's rules apply (used where markdown rules make no sense, like frontmatter). */
export function plainStructure(n: number): BaseStructure {
	return { fences: [], fenceOf: new Int32Array(n).fill(-1), itemStart: new Uint8Array(n), inItem: new Uint8Array(n) };
}
