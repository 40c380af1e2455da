import { describe, expect, it } from "vitest";
import { mergedText, mergeThreeWay, renderMerge } from "../../../src/core/merge/index";
import type { MergeResult } from "../../../src/core/merge/index";

const conflictOf = (base: string, mine: string, theirs: string): MergeResult => ({
	clean: false,
	conflicts: 1,
	regions: [{ kind: "conflict", id: 0, reason: "overlap", base, mine, theirs }],
});

describe("renderMerge", () => {
	const result = mergeThreeWay("a\nb\nc\n", "a\nB\nc\n", "a\nX\nc\n");

	it("writes git-style markers", () => {
		expect(renderMerge(result)).toBe("a\n<<<<<<< mine\nB\n=======\nX\n>>>>>>> agent\nc\n");
	});

	it("adds the base in diff3 style", () => {
		expect(renderMerge(result, { diff3: true })).toBe(
			"a\n<<<<<<< mine\nB\n||||||| base\nb\n=======\nX\n>>>>>>> agent\nc\n",
		);
	});

	it("keeps markers on their own lines when a side lacks a final newline", () => {
		expect(renderMerge(mergeThreeWay("a\nb", "a\nB", "a\nX"), { diff3: true })).toBe(
			"a\n<<<<<<< mine\nB\n||||||| base\nb\n=======\nX\n>>>>>>> agent\n",
		);
	});

	it("renders empty sides as nothing between markers", () => {
		expect(renderMerge(conflictOf("b\n", "", "X\n"))).toBe("<<<<<<< mine\n=======\nX\n>>>>>>> agent\n");
		expect(renderMerge(conflictOf("", "x\n", "y\n"), { diff3: true })).toBe(
			"<<<<<<< mine\nx\n||||||| base\n=======\ny\n>>>>>>> agent\n",
		);
	});

	it("uses the conflict's own line ending, falling back to the note's", () => {
		expect(renderMerge(conflictOf("b\r\n", "B\r\n", "X\r\n"))).toBe(
			"<<<<<<< mine\r\nB\r\n=======\r\nX\r\n>>>>>>> agent\r\n",
		);
		const noNewline: MergeResult = {
			clean: false,
			conflicts: 1,
			regions: [
				{ kind: "stable", text: "a\r\n", origin: "base" },
				{ kind: "conflict", id: 0, reason: "overlap", base: "b", mine: "B", theirs: "X" },
			],
		};
		expect(renderMerge(noNewline)).toBe("a\r\n<<<<<<< mine\r\nB\r\n=======\r\nX\r\n>>>>>>> agent\r\n");
	});

	it("renders a clean result as the merged text, with no markers", () => {
		const clean = mergeThreeWay("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n");
		expect(renderMerge(clean)).toBe("A\nb\nC\n");
		expect(renderMerge(clean)).toBe(mergedText(clean));
	});
});

describe("mergedText", () => {
	it("refuses a result with conflicts instead of dropping a side", () => {
		expect(() => mergedText(mergeThreeWay("a\n", "b\n", "c\n"))).toThrow(/1 conflict/);
	});
});
