/** Groups both sides' hunks into changed base ranges: git's diff3 grouping plus the markdown unit rules. */
import type { Hunk, Side } from "./hunks";
import { fenceSpans, type FenceSpan } from "./fence-spans";
import { abandonedIndents, isBlank, isItemStart, isListish, type BaseStructure } from "./markdown";

export interface Group {
	/** Base range [baseStart, baseEnd); may reach one past the last line for an unclosed fence (callers clamp). */
	baseStart: number;
	baseEnd: number;
	mine: Hunk[];
	theirs: Hunk[];
	/** Both sides changed inside one fenced code block: a conflict unless both made the same change. */
	fence: boolean;
	/** The list rule kept this group apart from a touching change of the other side (git would have joined them). */
	listRule: boolean;
}

export interface SideLines {
	base: readonly string[];
	mine: readonly string[];
	theirs: readonly string[];
}

/** A hunk, or (hunk null) the span of a code block both sides changed. */
type Item = { hunk: Hunk; start: number; end: number; shifted?: undefined } | FenceSpan;

/** What the rules need while sweeping: the texts, the base's structure, and the lists a side re-indented. */
interface Context {
	lines: SideLines;
	structure: BaseStructure;
	/** Per list (BaseStructure.listOf id) a side re-indented items in: that side and the indents it moved them from. */
	reindented: Map<number, Reindent>;
}

/** `side` null: both sides re-indented items of the list. */
type Reindent = { side: Side | null; from: Set<string> };

/**
 * One sweep in base order. Like git merge-file, hunks from the two sides that overlap or merely touch (no unchanged
 * base line between them) share a group; the list rule exempts touching whole items, the fence rule adds a span
 * covering each code block both sides changed.
 */
export function groupHunks(mine: Hunk[], theirs: Hunk[], lines: SideLines, structure: BaseStructure): Group[] {
	const context: Context = { lines, structure, reindented: reindentedLists([...mine, ...theirs], lines, structure) };
	const items: Item[] = [...mine, ...theirs].map((hunk) => ({ hunk, start: hunk.baseStart, end: hunk.baseEnd }));
	for (const span of fenceSpans(mine, theirs, lines, structure)) items.push(span);
	// At one start line: hunks before code-block spans (a hunk there may touch the previous group, a span never
	// joins by touching), and insertions before changes (they sit above that line).
	items.sort((a, b) => a.start - b.start || Number(a.hunk === null) - Number(b.hunk === null) || a.end - b.end);

	const groups: Group[] = [];
	let current: Group | null = null;
	for (const item of items) {
		const touch: Touch =
			current !== null && item.hunk !== null && item.start === current.baseEnd
				? touching(current, item.hunk, context)
				: "apart";
		const joins =
			current !== null &&
			(item.start < current.baseEnd || touch === "joins" || (item.shifted === true && insertsAt(current, item.start)));
		if (!joins || current === null) {
			const listRule: boolean = touch === "list";
			if (listRule && current) current.listRule = true;
			current = { baseStart: item.start, baseEnd: item.end, mine: [], theirs: [], fence: false, listRule };
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

type Touch = "joins" | "list" | "apart";

/**
 * A hunk starting where the group ends joins it if the other side's last hunk ends right there (git's rule), unless
 * the list rule keeps the two apart ("list").
 */
function touching(group: Group, hunk: Hunk, context: Context): Touch {
	const other = group[otherSide(hunk.side)];
	const before = other[other.length - 1];
	if (!before || before.baseEnd !== hunk.baseStart) return "apart";
	return wholeItemsApart(before, hunk, context) ? "list" : "joins";
}

/** The group holds an insertion at `at` (its last hunk of either side), which a shifted code-block span there contains. */
function insertsAt(group: Group, at: number): boolean {
	return [group.mine[group.mine.length - 1], group.theirs[group.theirs.length - 1]].some(
		(hunk) => hunk !== undefined && hunk.baseStart === at && hunk.baseEnd === at,
	);
}

/** The lists in which some hunk re-indents an item (a nesting change), with the indents it left. */
function reindentedLists(hunks: readonly Hunk[], lines: SideLines, structure: BaseStructure): Map<number, Reindent> {
	const lists = new Map<number, Reindent>();
	for (const hunk of hunks) {
		const from = abandonedIndents(
			lines.base,
			hunk.baseStart,
			hunk.baseEnd,
			lines[hunk.side],
			hunk.sideStart,
			hunk.sideEnd,
			structure,
		);
		if (from === null) continue;
		for (let i = hunk.baseStart; i < hunk.baseEnd; i++) {
			const list = structure.listOf[i] ?? -1;
			if (list < 0) continue;
			const known = lists.get(list);
			if (!known) lists.set(list, { side: hunk.side, from: new Set(from) });
			else {
				if (known.side !== hunk.side) known.side = null;
				for (const indent of from) known.from.add(indent);
			}
		}
	}
	return lists;
}

/**
 * A list a side re-indented loses the list rule (issue 12's contract): items changed next to re-indented ones could
 * mix two nestings, and a conflict there is what git gives too. Safer than judging which indents the sides share.
 */
function mixesIndents(_hunk: Hunk, { reindented }: Context, list: number): boolean {
	return reindented.has(list);
}

/**
 * The list rule: two touching hunks are independent when the boundary between them separates two list items and
 * each hunk stays within list lines, so each side changed (or added, or removed) its own item(s).
 */
function wholeItemsApart(before: Hunk, after: Hunk, context: Context): boolean {
	const { lines, structure } = context;
	const at = after.baseStart;
	const n = lines.base.length;
	const insertsBefore = before.baseStart === before.baseEnd;
	const insertsAfter = after.baseStart === after.baseEnd;
	// Two insertions at one point have no order we could choose for the user.
	if (insertsBefore && insertsAfter) return false;
	if (at === 0 || structure.inItem[at - 1] !== 1) return false;
	if (context.reindented.size > 0) {
		const [above, below] = [structure.listOf[at - 1] ?? -1, structure.listOf[at] ?? -1];
		if (mixesIndents(before, context, above) || mixesIndents(after, context, above)) return false;
		if (below !== above && (mixesIndents(before, context, below) || mixesIndents(after, context, below))) return false;
	}
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
