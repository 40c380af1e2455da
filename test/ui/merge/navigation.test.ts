/** Conflict navigation: which conflict next and previous go to, and the cursor that moves focus among the rows. */
import { describe, expect, it, vi } from "vitest";
import type { RowHandle } from "../../../src/ui/merge/block-row";
import { MergeState } from "../../../src/ui/merge/merge-state";
import { ConflictCursor, unresolvedFrom } from "../../../src/ui/merge/navigation";

describe("conflict navigation", () => {
	it("goes to the nearest unresolved conflict either way, wrapping around", () => {
		const base = "a\n\nb\n\nc\n\nd\n";
		const state = new MergeState(base, "A1\n\nB1\n\nC1\n\nd\n", "A2\n\nB2\n\nC2\n\nd\n");
		expect(state.conflictCount).toBe(3);
		state.choose(state.conflictIndex(1), "mine");
		expect(unresolvedFrom(state, -1, 1)).toBe(0);
		expect(unresolvedFrom(state, 0, 1)).toBe(2);
		expect(unresolvedFrom(state, 2, 1)).toBe(0);
		expect(unresolvedFrom(state, 0, -1)).toBe(2);
		expect(unresolvedFrom(state, 2, -1)).toBe(0);
		state.acceptAll("theirs");
		expect(unresolvedFrom(state, 0, 1)).toBeNull();
	});
});

/** Three conflicts (ids 0, 1, 2) between unchanged lines, each row a stand-in that records where focus went. */
function cursorOver(resolve: (state: MergeState) => void = () => {}) {
	const state = new MergeState("a\n\nb\n\nc\n\nd\n", "A1\n\nB1\n\nC1\n\nd\n", "A2\n\nB2\n\nC2\n\nd\n");
	resolve(state);
	const focused: string[] = [];
	const rows: (RowHandle | null)[] = state.blockList.map((block, index) => {
		const name = block.kind === "conflict" ? `conflict ${block.id}` : `row ${index}`;
		const target = { focus: vi.fn(() => focused.push(name)) };
		return {
			element: { scrollIntoView: vi.fn(() => focused.push(`scrolled to ${name}`)) },
			focusTarget: target,
			update: () => {},
			renumber: () => {},
		} as unknown as RowHandle;
	});
	const noneLeft = vi.fn(() => focused.push("save"));
	return { state, focused, noneLeft, cursor: new ConflictCursor(state, () => rows, noneLeft) };
}

describe("the conflict cursor", () => {
	it("focuses the first unresolved conflict, then steps either way from the one it is on, wrapping around", () => {
		const { cursor, focused } = cursorOver((state) => state.choose(state.conflictIndex(1), "mine"));
		cursor.focusFirst();
		cursor.step(1);
		cursor.step(1);
		cursor.step(-1);
		expect(focused).toEqual(["conflict 0", "conflict 2", "conflict 0", "conflict 2"]);
	});

	it("continues from a conflict the person focused by hand", () => {
		const { cursor, focused } = cursorOver();
		cursor.visited(1);
		cursor.step(1);
		expect(focused).toEqual(["conflict 2"]);
	});

	it("sends focus elsewhere when nothing is left unresolved, and stays put when stepping", () => {
		const { cursor, focused, noneLeft } = cursorOver((state) => state.acceptAll("theirs"));
		cursor.focusFirst();
		cursor.step(1);
		expect(noneLeft).toHaveBeenCalledTimes(1);
		expect(focused).toEqual(["save"]);
	});

	it("jumps to a conflict as navigation does, and to any other row by scrolling it into view", () => {
		const { cursor, focused, state } = cursorOver();
		const stable = state.blockList.findIndex((block) => block.kind !== "conflict");
		cursor.jumpTo(state.conflictIndex(2));
		cursor.step(1);
		cursor.jumpTo(stable);
		expect(focused).toEqual(["conflict 2", "conflict 0", `scrolled to row ${stable}`, `row ${stable}`]);
	});
});
