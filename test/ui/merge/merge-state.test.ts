/**
 * The merge view's model without a DOM: choices, typing, bulk actions, result text, rebase, no base; and how much of
 * the agent's work the core's one judgement (core/agent-outcome.ts) finds in the results the view builds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MARKERS, mergeThreeWay, renderMerge } from "../../../src/core/merge";
import type { ConflictBlock } from "../../../src/ui/merge/blocks";
import { agentTakenOf } from "../../../src/core/agent-outcome";
import { MergeState } from "../../../src/ui/merge/merge-state";

const BASE = "# Plan\n\nalpha one\nbeta two\ngamma three\n\ndelta\n";
const MINE = "# Plan\n\nalpha ONE\nbeta two\ngamma three\n\ndelta mine\n";
const THEIRS = "# Plan\n\nalpha 1\nbeta two\ngamma three!\n\ndelta\nnew\n";

/** Two conflicts (alpha, delta) and one agent-only change (gamma). */
function sample(): MergeState {
	return merge(BASE, MINE, THEIRS);
}

/** The sides each state was built from, so tests can ask the core how much of the agent's work a result keeps. */
const sidesOf = new WeakMap<MergeState, { base: string | null; mine: string; theirs: string }>();

function merge(base: string | null, mine: string, theirs: string): MergeState {
	const state = new MergeState(base, mine, theirs);
	sidesOf.set(state, { base, mine, theirs });
	return state;
}

/** What the modal's save records: the core's judgement of the result the view built. */
function taken(state: MergeState): string {
	return agentTakenOf({ ...sidesOf.get(state)!, result: state.resultText(), unresolved: state.unresolvedCount() > 0 });
}

function conflictIndex(state: MergeState, id: number): number {
	const index = state.conflictIndex(id);
	expect(index).toBeGreaterThanOrEqual(0);
	return index;
}

function statusAt(state: MergeState, index: number): string {
	const block = state.blockList[index];
	expect(block?.kind).toBe("conflict");
	return state.status(block as ConflictBlock);
}

function stableIndex(state: MergeState, origin: string): number {
	const index = state.blockList.findIndex((block) => block.kind === "stable" && block.origin === origin);
	expect(index).toBeGreaterThanOrEqual(0);
	return index;
}

describe("result text", () => {
	it("is the engine's git-style rendering while nothing is chosen", () => {
		const state = sample();
		expect(state.conflictCount).toBe(2);
		expect(state.unresolvedCount()).toBe(2);
		expect(state.resultText()).toBe(renderMerge(mergeThreeWay(BASE, MINE, THEIRS)));
		expect(state.resultText()).toContain(
			`${MARKERS.mine}\nalpha ONE\n${MARKERS.separator}\nalpha 1\n${MARKERS.theirs}\n`,
		);
	});

	it("follows each choice exactly", () => {
		const state = sample();
		state.choose(conflictIndex(state, 0), "mine");
		state.choose(conflictIndex(state, 1), "theirs");
		expect(state.resultText()).toBe("# Plan\n\nalpha ONE\nbeta two\ngamma three!\n\ndelta\nnew\n");
		state.choose(conflictIndex(state, 0), "mine-theirs");
		state.choose(conflictIndex(state, 1), "theirs-mine");
		expect(state.resultText()).toBe("# Plan\n\nalpha ONE\nalpha 1\nbeta two\ngamma three!\n\ndelta\nnew\ndelta mine\n");
		state.choose(conflictIndex(state, 0), "base");
		state.choose(conflictIndex(state, 1), "base");
		expect(state.resultText()).toBe("# Plan\n\nalpha one\nbeta two\ngamma three!\n\ndelta\n");
		expect(state.unresolvedCount()).toBe(0);
	});

	it("keeps lines whole when a side lacks its final newline", () => {
		const state = new MergeState("a\nb", "a\nmine", "a\nagent");
		const index = conflictIndex(state, 0);
		state.choose(index, "mine-theirs");
		expect(state.resultText()).toBe("a\nmine\nagent");
		state.choose(index, "theirs-mine");
		expect(state.resultText()).toBe("a\nagent\nmine");
	});

	it("keeps CRLF line endings in markers, choices and typed text", () => {
		const crlf = (text: string) => text.replace(/\n/g, "\r\n");
		const state = new MergeState(crlf(BASE), crlf(MINE), crlf(THEIRS));
		expect(state.resultText()).toBe(renderMerge(mergeThreeWay(crlf(BASE), crlf(MINE), crlf(THEIRS))));
		state.choose(conflictIndex(state, 0), "mine-theirs");
		state.edit(conflictIndex(state, 1), "delta typed\nsecond");
		expect(state.resultText()).toBe(
			crlf("# Plan\n\nalpha ONE\nalpha 1\nbeta two\ngamma three!\n\ndelta typed\nsecond\n"),
		);
	});
});

describe("manual edits", () => {
	it("settle a conflict as edited; typing back what it showed undoes the edit", () => {
		const state = sample();
		const index = conflictIndex(state, 0);
		// Undecided, a conflict shows nothing to type over: its markers are only for a note saved undecided.
		const shown = state.displayText(index);
		expect(shown).toBe("");
		expect(state.blockText(index)).toBe(
			`${MARKERS.mine}\nalpha ONE\n${MARKERS.separator}\nalpha 1\n${MARKERS.theirs}\n`,
		);
		state.edit(index, "alpha (typed)");
		expect(statusAt(state, index)).toBe("edited");
		expect(state.unresolvedCount()).toBe(1);
		expect(state.resultText()).toContain("\nalpha (typed)\nbeta two\n");
		state.edit(index, shown);
		expect(statusAt(state, index)).toBe("unresolved");
		expect(state.isEdited(index)).toBe(false);
	});

	it("are never overwritten by accept-all; a button click replaces them", () => {
		const state = sample();
		const first = conflictIndex(state, 0);
		const second = conflictIndex(state, 1);
		state.edit(first, "alpha typed");
		expect(state.acceptAll("theirs")).toBe(1);
		expect(state.blockText(first)).toBe("alpha typed\n");
		expect(state.blockText(second)).toBe("delta\nnew\n");
		expect(state.acceptAll("mine")).toBe(1);
		expect(state.blockText(first)).toBe("alpha typed\n");
		expect(state.blockText(second)).toBe("delta mine\n");
		state.choose(first, "theirs");
		expect(state.blockText(first)).toBe("alpha 1\n");
		expect(state.isEdited(first)).toBe(false);
	});

	it("of unchanged and auto-merged text stay through accept-all and choices", () => {
		const state = sample();
		const agentBlock = stableIndex(state, "theirs");
		state.edit(agentBlock, "gamma edited");
		state.acceptAll("mine");
		state.choose(conflictIndex(state, 0), "theirs");
		expect(state.blockText(agentBlock)).toBe("gamma edited\n");
		expect(state.resultText()).toBe("# Plan\n\nalpha 1\nbeta two\ngamma edited\n\ndelta mine\n");
		expect(state.manualEdits()).toBe(1);
	});

	it("are all discarded by reset, which restores the automatic merge", () => {
		const state = sample();
		state.edit(stableIndex(state, "theirs"), "gamma edited");
		state.edit(conflictIndex(state, 0), "typed");
		state.choose(conflictIndex(state, 1), "mine");
		expect(state.hasWork()).toBe(true);
		state.reset();
		expect(state.hasWork()).toBe(false);
		expect(state.manualEdits()).toBe(0);
		expect(state.resultText()).toBe(renderMerge(mergeThreeWay(BASE, MINE, THEIRS)));
	});

	it("come back after a reset from a snapshot, but not after a rebase replaced the blocks", () => {
		const state = sample();
		state.edit(stableIndex(state, "theirs"), "gamma edited");
		state.choose(conflictIndex(state, 1), "mine");
		const before = state.resultText();
		const snapshot = state.snapshot();
		state.reset();
		expect(state.restore(snapshot)).toBe(true);
		expect(state.resultText()).toBe(before);
		const stale = state.snapshot();
		state.rebase(MINE.replace("# Plan", "# Plan 2"));
		state.reset();
		expect(state.restore(stale)).toBe(false);
		expect(state.hasWork()).toBe(false);
	});

	it("map the textarea's lines to whole lines: emptied means no lines, a blank line survives a round trip", () => {
		const state = new MergeState("a\n\nb\n", "a\n\nb\n", "a\n\nb\nc\n");
		const blank = state.blockList.findIndex((block) => block.kind === "stable" && block.auto === "a\n\nb\n");
		expect(state.displayText(blank)).toBe("a\n\nb");
		state.edit(blank, "a\n\nb2");
		expect(state.resultText()).toBe("a\n\nb2\nc\n");
		state.edit(blank, "a\n\nb");
		expect(state.isEdited(blank)).toBe(false);
		state.edit(blank, "");
		expect(state.resultText()).toBe("c\n");
	});

	it("keep the note's missing final newline when typing into its last block", () => {
		const state = new MergeState("x\ny", "x\ny", "x2\ny");
		const last = state.blockList.length - 1;
		state.edit(last, "y typed");
		expect(state.resultText()).toBe("x2\ny typed");
	});

	it("into a block that had no lines end with a newline unless the block ends the note", () => {
		const state = new MergeState("a\nb\nc\n", "a\nc\n", "a\nB\nc\n");
		const index = conflictIndex(state, 0);
		state.choose(index, "mine");
		expect(state.blockText(index)).toBe("");
		state.edit(index, "typed");
		expect(state.resultText()).toBe("a\ntyped\nc\n");
	});
});

describe("how much of the agent's work a result keeps (core/agent-outcome.ts)", () => {
	it("is whole when every conflict goes to the agent or both and agent blocks are untouched", () => {
		const state = sample();
		state.choose(conflictIndex(state, 0), "theirs");
		state.choose(conflictIndex(state, 1), "mine-theirs");
		expect(taken(state)).toBe("whole");
		state.edit(stableIndex(state, "theirs"), "gamma edited");
		expect(taken(state)).toBe("partial");
	});

	it("is none when conflicts keep mine or base and agent-only changes are gone", () => {
		const conflictsOnly = merge("a\nb\n", "a2\nb\n", "a3\nb\n");
		conflictsOnly.choose(conflictIndex(conflictsOnly, 0), "base");
		expect(taken(conflictsOnly)).toBe("none");
		const state = sample();
		state.acceptAll("mine");
		expect(taken(state)).toBe("partial");
		state.edit(stableIndex(state, "theirs"), "gamma three");
		expect(taken(state)).toBe("none");
	});

	it("is partial while a conflict is unresolved or typed into freely", () => {
		const state = sample();
		expect(taken(state)).toBe("partial");
		state.acceptAll("theirs");
		expect(taken(state)).toBe("whole");
		state.edit(conflictIndex(state, 0), "something else");
		expect(taken(state)).toBe("partial");
	});

	it("judges typed conflicts by the text they ended with", () => {
		const state = merge("a\nb\n", "a2\nb\n", "a3\nb\n");
		const index = conflictIndex(state, 0);
		state.edit(index, "a3");
		expect(taken(state)).toBe("whole");
		state.edit(index, "a2");
		expect(taken(state)).toBe("none");
	});

	it("is none when the agent changed nothing, whole when it made the same change as the note", () => {
		expect(taken(merge("a\n", "a2\n", "a\n"))).toBe("none");
		expect(taken(merge("a\n", "a2\n", "a2\n"))).toBe("whole");
	});
});

describe("long unchanged stretches", () => {
	const lines = (from: number, to: number) =>
		Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join("");

	it("collapse their middle, keeping 3 lines next to each change, without changing the text", () => {
		const base = lines(0, 40);
		const mine = base.replace("line 20\n", "line 20 mine\n");
		const theirs = base.replace("line 39\n", "line 39 agent\n");
		const state = new MergeState(base, mine, theirs);
		const shape = state.blockList.map((block) =>
			block.kind === "stable"
				? `${block.origin}${block.collapsible ? "*" : ""}:${block.auto.split("\n").length - 1}`
				: "c",
		);
		expect(shape).toEqual(["base*:17", "base:3", "mine:1", "base:3", "base*:12", "base:3", "theirs:1"]);
		expect(state.resultText()).toBe(renderMerge(mergeThreeWay(base, mine, theirs)));
	});

	it("of 8 lines or fewer stay whole", () => {
		const base = lines(0, 10);
		const state = new MergeState(base, base.replace("line 0\n", "zero\n"), base.replace("line 9\n", "nine\n"));
		expect(state.blockList.some((block) => block.kind === "stable" && block.collapsible)).toBe(false);
	});
});

describe("rebase", () => {
	it("keeps choices and typing for conflicts that are still the same and drops them for changed ones", () => {
		const state = sample();
		state.choose(conflictIndex(state, 0), "theirs");
		state.edit(conflictIndex(state, 1), "delta typed");
		const newMine = MINE.replace("delta mine\n", "delta mine, again\n");
		expect(state.rebase(newMine)).toEqual({ kept: 1, dropped: 1 });
		expect(state.blockText(conflictIndex(state, 0))).toBe("alpha 1\n");
		expect(state.unresolvedCount()).toBe(1);
		expect(state.blockText(conflictIndex(state, 1))).toContain("delta mine, again\n");
	});

	it("keeps typing in unchanged text and picks up the note's new changes", () => {
		const state = sample();
		state.edit(stableIndex(state, "theirs"), "gamma edited");
		state.acceptAll("mine");
		const report = state.rebase(MINE.replace("# Plan\n", "# Plan v2\n"));
		expect(report).toEqual({ kept: 3, dropped: 0 });
		expect(state.resultText()).toBe("# Plan v2\n\nalpha ONE\nbeta two\ngamma edited\n\ndelta mine\n");
	});

	it("re-merges without a base as well", () => {
		const state = new MergeState(null, "a\nb\nc\n", "a\nB\nc\n");
		state.choose(conflictIndex(state, 0), "theirs");
		expect(state.rebase("A\nb\nc\n")).toEqual({ kept: 0, dropped: 1 });
		expect(state.conflictCount).toBe(1);
		expect(state.resultText()).toBe(`${MARKERS.mine}\nA\nb\n${MARKERS.separator}\na\nB\n${MARKERS.theirs}\nc\n`);
	});
});

describe("without a base", () => {
	it("shows every difference as its own conflict and shared lines as unchanged text", () => {
		const state = merge(null, "same\nmine 1\nsame 2\nmine 2\n", "same\nagent 1\nsame 2\nagent 2\nextra\n");
		expect(state.hasBase).toBe(false);
		expect(state.conflictCount).toBe(2);
		const conflicts = state.blockList.filter((block) => block.kind === "conflict");
		expect(conflicts.map((block) => [block.reason, block.base, block.mine, block.theirs])).toEqual([
			["no-base", "", "mine 1\n", "agent 1\n"],
			["no-base", "", "mine 2\n", "agent 2\nextra\n"],
		]);
		expect(taken(state)).toBe("partial");
		state.acceptAll("theirs");
		expect(state.resultText()).toBe("same\nagent 1\nsame 2\nagent 2\nextra\n");
		expect(taken(state)).toBe("whole");
		state.acceptAll("mine");
		expect(state.resultText()).toBe("same\nmine 1\nsame 2\nmine 2\n");
		expect(taken(state)).toBe("none");
	});

	it("has no conflicts when both versions are equal, and keeps the note's BOM", () => {
		expect(new MergeState(null, "x\ny\n", "x\ny\n").conflictCount).toBe(0);
		const state = new MergeState(null, "\ufeffx\ny\n", "x\nY\n");
		state.acceptAll("theirs");
		expect(state.resultText()).toBe("\ufeffx\nY\n");
	});

	it("lets accept-all reproduce either side exactly (property)", () => {
		const line = fc.constantFrom("a\n", "b\n", "c\n", "- [ ] task\n", "\n", "---\n", "x: 1\n", "```\n", "c\r\n", "end");
		const note = fc.array(line, { maxLength: 12 }).map((parts) => parts.join(""));
		fc.assert(
			fc.property(note, note, (mine, theirs) => {
				const state = new MergeState(null, mine, theirs);
				state.acceptAll("theirs");
				expect(state.resultText()).toBe(theirs);
				state.acceptAll("mine");
				expect(state.resultText()).toBe(mine);
			}),
		);
	});

	it("renders like the engine while nothing is chosen (property, with a base)", () => {
		const line = fc.constantFrom("a\n", "b\n", "c\n", "\n", "d", "e\r\n");
		const note = fc.array(line, { maxLength: 10 }).map((parts) => parts.join(""));
		fc.assert(
			fc.property(note, note, note, (base, mine, theirs) => {
				const state = new MergeState(base, mine, theirs);
				expect(state.resultText()).toBe(renderMerge(mergeThreeWay(base, mine, theirs)));
				for (let index = 0; index < state.blockList.length; index++) state.edit(index, state.displayText(index));
				expect(state.manualEdits()).toBe(0);
			}),
		);
	});
});
