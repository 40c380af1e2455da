/**
 * One click undoes one automatic change (merge-state.ts): to base, or for a rule that combined two blocks, to either
 * side's block; undo is part of the person's work (reset, snapshot, rebase); and where each block starts (lines.ts).
 */
import { describe, expect, it } from "vitest";
import type { StableBlock } from "../../../src/ui/merge/blocks";
import { lineStarts, sideTexts } from "../../../src/ui/merge/lines";
import { MergeState } from "../../../src/ui/merge/merge-state";
import { overviewMarks } from "../../../src/ui/merge/overview";
import { counterText } from "../../../src/ui/merge/text";

const BASE = "# Plan\n\nalpha one\nbeta two\ngamma three\n\ndelta\n";
const MINE = "# Plan\n\nalpha ONE\nbeta two\ngamma three\n\ndelta mine\n";
const THEIRS = "# Plan\n\nalpha 1\nbeta two\ngamma three!\n\ndelta\nnew\n";

function stableIndex(state: MergeState, test: (block: StableBlock) => boolean): number {
	const index = state.blockList.findIndex((block) => block.kind === "stable" && test(block));
	expect(index).toBeGreaterThanOrEqual(0);
	return index;
}

describe("undoing one automatic change", () => {
	it("puts the base back for that change only, and keeping it again restores the merge", () => {
		const state = new MergeState(BASE, MINE, THEIRS);
		const gamma = stableIndex(state, (block) => block.origin === "theirs");
		const merged = state.resultText();
		state.undoChange(gamma, "base");
		expect(state.resultText()).toBe(merged.replace("gamma three!\n", "gamma three\n"));
		expect(state.hasWork()).toBe(true);
		state.undoChange(gamma, null);
		expect(state.resultText()).toBe(merged);
	});

	it("replaces typing in that block (the click is explicit), and is cleared by reset and brought back by restore", () => {
		const state = new MergeState(BASE, MINE, THEIRS);
		const gamma = stableIndex(state, (block) => block.origin === "theirs");
		state.edit(gamma, "gamma typed");
		state.undoChange(gamma, "base");
		expect(state.isEdited(gamma)).toBe(false);
		expect(state.blockText(gamma)).toBe("gamma three\n");
		const snapshot = state.snapshot();
		state.reset();
		expect(state.blockText(gamma)).toBe("gamma three!\n");
		expect(state.restore(snapshot)).toBe(true);
		expect(state.blockText(gamma)).toBe("gamma three\n");
	});

	it("survives a rebase where its block is unchanged", () => {
		const state = new MergeState(BASE, MINE, THEIRS);
		state.undoChange(
			stableIndex(state, (block) => block.origin === "theirs"),
			"base",
		);
		const report = state.rebase(MINE.replace("delta mine", "delta mine v2"));
		expect(report.kept).toBe(1);
		expect(state.resultText()).toContain("\ngamma three\n");
	});

	it("is refused for unchanged text and conflicts", () => {
		const state = new MergeState(BASE, MINE, THEIRS);
		expect(() => state.undoChange(0, "base")).toThrow(TypeError);
		expect(() => state.undoChange(state.conflictIndex(0), "base")).toThrow(TypeError);
	});

	it("of a rule merge can take either side's block, and the panes show each side's own block", () => {
		const base = "---\ntags: [x]\n---\nbody\n";
		const state = new MergeState(base, "---\ntags: [x, y]\n---\nbody\n", "---\ntags: [x, z]\n---\nbody\n");
		const index = stableIndex(state, (block) => block.rule === "tags");
		const block = state.blockList[index] as StableBlock;
		expect(sideTexts(block)).toEqual({
			base: "---\ntags: [x]\n---\n",
			mine: "---\ntags: [x, y]\n---\n",
			theirs: "---\ntags: [x, z]\n---\n",
		});
		expect(state.resultText()).toBe("---\ntags: [x, y, z]\n---\nbody\n");
		state.undoChange(index, "theirs");
		expect(state.resultText()).toBe("---\ntags: [x, z]\n---\nbody\n");
		state.undoChange(index, "mine");
		expect(state.resultText()).toBe("---\ntags: [x, y]\n---\nbody\n");
		state.undoChange(index, "base");
		expect(state.resultText()).toBe(base);
	});

	it("of the list rule undoes one side's item and keeps the other's", () => {
		const state = new MergeState("- a\n- b\n- c\n", "- a!\n- b\n- c\n", "- a\n- b!\n- c\n");
		const agents = stableIndex(state, (block) => block.rule === "list" && block.origin === "theirs");
		state.undoChange(agents, "base");
		expect(state.resultText()).toBe("- a!\n- b\n- c\n");
	});
});

describe("orientation", () => {
	it("numbers each block's first line in every version; an undecided conflict takes no result lines", () => {
		const state = new MergeState(BASE, MINE, THEIRS);
		const starts = lineStarts(state);
		const alpha = state.conflictIndex(0);
		const gamma = stableIndex(state, (block) => block.origin === "theirs");
		expect(starts[alpha]).toEqual({ base: 3, mine: 3, theirs: 3, result: 3 });
		expect(starts[gamma]).toEqual({ base: 5, mine: 5, theirs: 5, result: 4 });
		state.choose(alpha, "mine-theirs");
		expect(lineStarts(state)[gamma]?.result).toBe(6);
	});

	it("marks every change and conflict on the overview, in order, by kind", () => {
		const state = new MergeState(BASE, MINE, THEIRS);
		state.choose(state.conflictIndex(1), "theirs");
		state.undoChange(
			stableIndex(state, (block) => block.origin === "theirs"),
			"base",
		);
		const marks = overviewMarks(state, lineStarts(state));
		expect(marks.map((mark) => mark.kind)).toEqual(["unresolved", "undone", "resolved"]);
		expect(marks.map((mark) => mark.title)).toEqual([
			"Conflict 1 of 2: undecided",
			"Change undone",
			"Conflict 2 of 2: took the agent's",
		]);
		const tops = marks.map((mark) => mark.top);
		expect([...tops].sort((a, b) => a - b)).toEqual(tops);
		for (const mark of marks) expect(mark.top + mark.height).toBeLessThanOrEqual(100);
	});

	it("counts conflicts so the total matches 'Conflict n of m' and the rest says what is left", () => {
		expect(counterText(0, 0)).toBe("No conflicts");
		expect(counterText(2, 1)).toBe("2 conflicts · 1 left to decide");
		expect(counterText(1, 1)).toBe("1 conflict · 1 left to decide");
		expect(counterText(2, 0)).toBe("2 conflicts · all decided");
	});
});
