/** Line numbers: where each block starts in each version (base, your note, agent) and in the result. */
import type { Block } from "./blocks";
import type { MergeState } from "./merge-state";

export interface LineStarts {
	base: number;
	mine: number;
	theirs: number;
	result: number;
}

export interface SideTexts {
	base: string;
	mine: string;
	theirs: string;
}

/** Each version's own text for a block (a rule merge of two blocks shows each side's block). */
export function sideTexts(block: Readonly<Block>): SideTexts {
	if (block.kind === "conflict") return { base: block.base, mine: block.mine, theirs: block.theirs };
	const { origin, base, auto } = block;
	const mineChanged = origin === "mine" || origin === "both";
	const theirsChanged = origin === "theirs" || origin === "both";
	return {
		base,
		mine: mineChanged ? (block.ruleMine ?? auto) : origin === "base" ? auto : base,
		theirs: theirsChanged ? (block.ruleTheirs ?? auto) : origin === "base" ? auto : base,
	};
}

/**
 * 1-based first line of every block in every version; the result is numbered as shown (an undecided conflict has no
 * lines until it is decided). A block without a final newline ends the text.
 */
export function lineStarts(state: MergeState): LineStarts[] {
	const next: LineStarts = { base: 1, mine: 1, theirs: 1, result: 1 };
	return state.blockList.map((block, index) => {
		const starts = { ...next };
		const texts = sideTexts(block);
		next.base += newlines(texts.base);
		next.mine += newlines(texts.mine);
		next.theirs += newlines(texts.theirs);
		next.result += newlines(state.shownText(index));
		return starts;
	});
}

export function newlines(text: string): number {
	let count = 0;
	for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
	return count;
}
