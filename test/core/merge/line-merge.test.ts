import { describe, expect, it } from "vitest";
import { splitLines } from "../../../src/core/markdown/lines";
import { mergeLines } from "../../../src/core/merge/line-merge";
import type { DraftRegion } from "../../../src/core/merge/types";

/** git's rules only: the markdown rules are tested in group.test.ts. */
function plain(base: string, mine: string, theirs: string): DraftRegion[] {
	return mergeLines(splitLines(base), splitLines(mine), splitLines(theirs), { markdown: false });
}

const conflicts = (regions: DraftRegion[]) => regions.filter((region) => region.kind === "conflict");

describe("mergeLines (git's rules)", () => {
	it("takes each side's change when they are separated by an unchanged line", () => {
		expect(plain("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n")).toEqual([
			{ kind: "stable", text: "A\n", origin: "mine", base: "a\n" },
			{ kind: "stable", text: "b\n", origin: "base" },
			{ kind: "stable", text: "C\n", origin: "theirs", base: "c\n" },
		]);
	});

	it("reports changes to adjacent lines as a conflict, like git merge-file", () => {
		expect(plain("a\nb\nc\n", "A\nb\nc\n", "a\nB\nc\n")).toEqual([
			{ kind: "conflict", reason: "overlap", base: "a\nb\n", mine: "A\nb\n", theirs: "a\nB\n" },
			{ kind: "stable", text: "c\n", origin: "base" },
		]);
	});

	it("reports an insertion touching the other side's change as a conflict", () => {
		expect(conflicts(plain("a\nb\n", "a\nnew\nb\n", "a\nB\n"))).toHaveLength(1);
		expect(conflicts(plain("a\nb\n", "A\nb\n", "a\nnew\nb\n"))).toHaveLength(1);
	});

	it("reports two different insertions at one point as a conflict", () => {
		expect(conflicts(plain("a\nb\n", "a\nx\nb\n", "a\ny\nb\n"))).toEqual([
			{ kind: "conflict", reason: "overlap", base: "", mine: "x\n", theirs: "y\n" },
		]);
	});

	it("accepts the same change made on both sides", () => {
		expect(plain("a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n")).toEqual([
			{ kind: "stable", text: "a\n", origin: "base" },
			{ kind: "stable", text: "B\n", origin: "both", base: "b\n" },
			{ kind: "stable", text: "c\n", origin: "base" },
		]);
	});

	it("accepts overlapping hunks that arrive at the same text", () => {
		// mine changes b and c in one hunk; theirs too, but the regions could only be compared as a whole.
		const regions = plain("a\nb\nc\nd\n", "a\nX\nY\nd\n", "a\nX\nY\nd\n");
		expect(conflicts(regions)).toEqual([]);
	});

	it("keeps a deletion as an empty stable region that names what it removed", () => {
		expect(plain("a\nb\nc\n", "a\nc\n", "a\nb\nc\n")).toContainEqual({
			kind: "stable",
			text: "",
			origin: "mine",
			base: "b\n",
		});
	});

	it("merges deletions and insertions far apart", () => {
		const regions = plain("1\n2\n3\n4\n5\n", "2\n3\n4\n5\n", "1\n2\n3\n4\n5\n6\n");
		expect(regions.map((region) => (region.kind === "stable" ? region.text : "!")).join("")).toBe("2\n3\n4\n5\n6\n");
	});

	it("conflicts when one side deletes what the other changed", () => {
		expect(conflicts(plain("a\nb\nc\n", "a\nc\n", "a\nB\nc\n"))).toEqual([
			{ kind: "conflict", reason: "overlap", base: "b\n", mine: "", theirs: "B\n" },
		]);
	});

	it("handles empty texts", () => {
		expect(plain("", "", "")).toEqual([]);
		expect(plain("", "a\n", "")).toEqual([{ kind: "stable", text: "a\n", origin: "mine", base: "" }]);
		expect(conflicts(plain("", "a\n", "b\n"))).toHaveLength(1);
		expect(plain("a\n", "", "a\n")).toEqual([{ kind: "stable", text: "", origin: "mine", base: "a\n" }]);
	});

	it("places hunks in repeated lines where git does before deciding", () => {
		// mine adds X on top and a second "}"; diff-match-patch puts that "}" above the existing one, git below it,
		// where it meets theirs' insertion of Y: git reports a conflict, and so must we.
		expect(conflicts(plain("b\n}\n\n", "X\nb\n}\n}\n\n", "b\n}\nY\n\n"))).toEqual([
			{ kind: "conflict", reason: "overlap", base: "", mine: "}\n", theirs: "Y\n" },
		]);
	});
});
