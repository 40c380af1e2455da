/** Groups both sides' hunks into changed base ranges: git's diff3 grouping plus the markdown unit rules. */
import type { Hunk, Side } from "./hunks";
import { isBlank, isItemStart, isListish, type BaseStructure } from "./markdown";

export interface Group {
	/** Base range [baseStart, baseEnd); may reach one past the last line for an unclosed fence (callers clamp). */
	baseStart: number;
	baseEnd: number;
	mine: Hunk[];
	theirs: Hunk[];
	/** Both sides changed inside one fenced code block: a conflict unless both made the same change. */
	fence: boolean;
}

export interface SideLines {
	base: readonly string[];
	mine: readonly string[];
	theirs: readonly string[];
}

/** A hunk, or (hunk null) the span of a code block both sides changed. */
type Item = { hunk: Hunk | null; start: number; end: number };

/**
 * One sweep in base order. Like git merge-file, hunks from the two sides that overlap or merely touch (no unchanged
 * base line between them) share a group; the list rule exempts touching whole items, the fence rule adds a span
 * covering each code block both sides changed.
 */
export function groupHunks(mine: Hunk[], theirs: Hunk[], lines: SideLines, structure: BaseStructure): Group[] {
	const items: Item[] = [...mine, ...theirs].map((hunk) => ({ hunk, start: hunk.baseStart, end: hunk.baseEnd }));
	for (const span of fenceSpans(mine, theirs, structure, lines.base.length)) items.push({ hunk: null, ...span });
	// At one start line: hunks before code-block spans (a hunk there may touch the previous group, a span never
	// joins by touching), and insertions before changes (they sit above that line).
	items.sort((a, b) => a.start - b.start || Number(a.hunk === null) - Number(b.hunk === null) || a.end - b.end);

	const groups: Group[] = [];
	let current: Group | null = null;
	for (const item of items) {
		const joins =
			current !== null &&
			(item.start < current.baseEnd ||
				(item.start === current.baseEnd && item.hunk !== null && touches(current, item.hunk, lines, structure)));
		if (!joins || current === null) {
			current = { baseStart: item.start, baseEnd: item.end, mine: [], theirs: [], fence: false };
			groups.push(current);
		}
		current.baseEnd = Math.max(current.baseEnd, item.end);
		if (item.hunk === null) current.fence = true;
		else current[item.hunk.side].push(item.hunk);
	}
	return groups;
}

function otherSide(side: Side): Side {
	return side === "mine" ? "theirs" : "mine";
}

/** A hunk starting where the group ends conflicts if the other side's last hunk ends right there (git's rule). */
function touches(group: Group, hunk: Hunk, lines: SideLines, structure: BaseStructure): boolean {
	const other = group[otherSide(hunk.side)];
	const before = other[other.length - 1];
	if (!before || before.baseEnd !== hunk.baseStart) return false;
	return !wholeItemsApart(before, hunk, lines, structure);
}

/**
 * The list rule: two touching hunks are independent when the boundary between them separates two list items and
 * each hunk stays within list lines, so each side changed (or added, or removed) its own item(s).
 */
function wholeItemsApart(before: Hunk, after: Hunk, lines: SideLines, structure: BaseStructure): boolean {
	const at = after.baseStart;
	const n = lines.base.length;
	const insertsBefore = before.baseStart === before.baseEnd;
	const insertsAfter = after.baseStart === after.baseEnd;
	// Two insertions at one point have no order we could choose for the user.
	if (insertsBefore && insertsAfter) return false;
	if (at === 0 || structure.inItem[at - 1] !== 1) return false;
	if (insertsAfter) {
		// Inserting below a changed item is fine unless the next base line continues that item.
		if (at < n && structure.itemStart[at] !== 1 && !isBlank(lines.base[at] ?? "")) return false;
	} else if (structure.itemStart[at] !== 1) return false;
	return itemShaped(before, lines, structure, insertsBefore) && itemShaped(after, lines, structure, true);
}

/** All base lines the hunk replaces are item lines, and its new lines are list lines that, if asked, open with an item. */
function itemShaped(hunk: Hunk, lines: SideLines, structure: BaseStructure, mustOpenItem: boolean): boolean {
	for (let i = hunk.baseStart; i < hunk.baseEnd; i++) if (structure.inItem[i] !== 1) return false;
	const replacement = lines[hunk.side];
	if (hunk.sideStart === hunk.sideEnd) return true;
	if (mustOpenItem && !isItemStart(replacement[hunk.sideStart] ?? "")) return false;
	for (let i = hunk.sideStart; i < hunk.sideEnd; i++) if (!isListish(replacement[i] ?? "")) return false;
	return true;
}

/** Spans of the base code blocks that both sides changed; an unclosed block runs past the end so end insertions join. */
function fenceSpans(mine: Hunk[], theirs: Hunk[], structure: BaseStructure, n: number): { start: number; end: number }[] {
	if (structure.fences.length === 0) return [];
	const mineFences = touchedFences(mine, structure, n);
	const spans: { start: number; end: number }[] = [];
	for (const index of touchedFences(theirs, structure, n)) {
		const fence = structure.fences[index];
		if (fence && mineFences.has(index)) spans.push({ start: fence.start, end: fence.closed ? fence.end : n + 1 });
	}
	return spans;
}

function touchedFences(hunks: Hunk[], structure: BaseStructure, n: number): Set<number> {
	const touched = new Set<number>();
	for (const hunk of hunks) {
		for (let i = hunk.baseStart; i < hunk.baseEnd; i++) {
			const fence = structure.fenceOf[i] ?? -1;
			if (fence >= 0) touched.add(fence);
		}
		if (hunk.baseStart !== hunk.baseEnd || hunk.baseStart === 0) continue;
		// An insertion is inside a block when the lines on both sides of it are in that block (or it ends an unclosed one).
		const at = hunk.baseStart;
		const above = structure.fenceOf[at - 1] ?? -1;
		if (above < 0) continue;
		const inside = at < n ? structure.fenceOf[at] === above : structure.fences[above]?.closed === false;
		if (inside) touched.add(above);
	}
	return touched;
}
