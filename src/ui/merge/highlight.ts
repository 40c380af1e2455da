/** What the read-only panes show for a block: each side's text, its word-level changes against base marked. */
import { wordDiff } from "../../core/merge";
import type { Block } from "./blocks";
import { sideTexts } from "./lines";

/** "added": words this side wrote; "removed": base words this side deleted (shown struck through). */
export interface Segment {
	kind: "same" | "added" | "removed";
	text: string;
}

export interface PaneTexts {
	base: Segment[];
	mine: Segment[];
	theirs: Segment[];
}

/** Word diffs of huge texts would stall opening; past this a side is shown unmarked (its row still says why). */
const WORD_DIFF_LIMIT = 200_000;

export function paneTexts(block: Readonly<Block>): PaneTexts {
	if (block.kind === "conflict") {
		if (block.reason === "no-base") {
			// No base: each side shows what differs from the other, since nobody knows which side changed it.
			return { base: [], mine: differences(block.theirs, block.mine), theirs: differences(block.mine, block.theirs) };
		}
		return { base: same(block.base), mine: changes(block.base, block.mine), theirs: changes(block.base, block.theirs) };
	}
	const texts = sideTexts(block);
	return { base: same(texts.base), mine: changes(texts.base, texts.mine), theirs: changes(texts.base, texts.theirs) };
}

/** `after` with the words it added and the base words it removed. */
export function changes(before: string, after: string): Segment[] {
	if (before === after) return same(after);
	if (before.length + after.length > WORD_DIFF_LIMIT) return same(after);
	return wordDiff(before, after).map((op) => ({
		kind: op.kind === "equal" ? "same" : op.kind === "insert" ? "added" : "removed",
		text: op.text,
	}));
}

/** `after` alone, with what `other` lacks marked as added. */
function differences(other: string, after: string): Segment[] {
	return changes(other, after).filter((segment) => segment.kind !== "removed");
}

function same(text: string): Segment[] {
	return text === "" ? [] : [{ kind: "same", text }];
}
