import { describe, expect, it } from "vitest";
import { diffLines } from "../../../src/core/diff/line-diff";
import { splitLines } from "../../../src/core/markdown/lines";
import { toHunks, type Hunk } from "../../../src/core/merge/hunks";

function hunks(base: string, side: string): Omit<Hunk, "side">[] {
	const [b, s] = [splitLines(base), splitLines(side)];
	return toHunks(diffLines(b, s), b, s, "mine").map(({ side: _side, ...range }) => range);
}

describe("toHunks", () => {
	it("returns no hunks for equal texts", () => {
		expect(hunks("a\nb\n", "a\nb\n")).toEqual([]);
	});

	it("groups a replacement into one hunk", () => {
		expect(hunks("a\nb\nc\n", "a\nB\nB2\nc\n")).toEqual([{ baseStart: 1, baseEnd: 2, sideStart: 1, sideEnd: 3 }]);
	});

	it("keeps hunks separated by unchanged lines apart", () => {
		expect(hunks("a\nb\nc\n", "A\nb\nC\n")).toEqual([
			{ baseStart: 0, baseEnd: 1, sideStart: 0, sideEnd: 1 },
			{ baseStart: 2, baseEnd: 3, sideStart: 2, sideEnd: 3 },
		]);
	});

	it("slides an insertion in repeated lines as far down as it goes, like git", () => {
		// Inserting one more "}" after "x": git reports the insertion after the last "}".
		expect(hunks("x\n}\n}\ny\n", "x\n}\n}\n}\ny\n")).toEqual([{ baseStart: 3, baseEnd: 3, sideStart: 3, sideEnd: 4 }]);
	});

	it("slides a deletion in repeated lines down too", () => {
		expect(hunks("x\n\n\n\ny\n", "x\n\n\ny\n")).toEqual([{ baseStart: 3, baseEnd: 4, sideStart: 3, sideEnd: 3 }]);
	});

	it("moves a change diff-match-patch placed differently to where git puts it", () => {
		// diff-match-patch: "\n"→"}" then -a; `git diff --no-indent-heuristic -U0`: +} on top, then -"\n" -a.
		expect(hunks("\n\na\n", "}\n\n")).toEqual([
			{ baseStart: 0, baseEnd: 0, sideStart: 0, sideEnd: 1 },
			{ baseStart: 1, baseEnd: 3, sideStart: 2, sideEnd: 2 },
		]);
	});

	it("merges a slid insertion into the neighbouring change when it reaches it, like git", () => {
		// `git diff --no-indent-heuristic -U0` reports the same single hunk: -b +c +a.
		expect(hunks("a\nb\na\nz\n", "a\nc\na\na\nz\n")).toEqual([{ baseStart: 1, baseEnd: 2, sideStart: 1, sideEnd: 3 }]);
	});
});
