import { describe, expect, it } from "vitest";
import { mergedText, mergeThreeWay, renderMerge } from "../../../src/core/merge/index";

describe("mergeThreeWay", () => {
	it("merges a note's frontmatter and body separately", () => {
		const base = "---\ntitle: A\ntags: [x]\n---\n# Tasks\n- [ ] a\n- [ ] b\n";
		const mine = "---\ntitle: B\ntags: [x, mine]\n---\n# Tasks\n- [x] a\n- [ ] b\n";
		const theirs = "---\ntitle: A\ntags: [x, agent]\n---\n# Tasks\n- [ ] a\n- [x] b\n";
		const result = mergeThreeWay(base, mine, theirs);
		expect(result.clean).toBe(true);
		expect(mergedText(result)).toBe("---\ntitle: B\ntags: [x, mine, agent]\n---\n# Tasks\n- [x] a\n- [x] b\n");
	});

	it("merges the whole text line by line when not every side has frontmatter", () => {
		const result = mergeThreeWay("body\n", "---\na: 1\n---\nbody\n", "body\nmore\n");
		expect(mergedText(result)).toBe("---\na: 1\n---\nbody\nmore\n");
	});

	it("numbers conflicts and counts them", () => {
		const result = mergeThreeWay("a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n", "a2\nb\nc\nd\ne2\n");
		expect(result.clean).toBe(false);
		expect(result.conflicts).toBe(2);
		expect(result.regions.flatMap((region) => (region.kind === "conflict" ? [region.id] : []))).toEqual([0, 1]);
	});

	it("joins neighbouring regions of the same origin", () => {
		expect(mergeThreeWay("a\nb\n", "a\nb\n", "a\nb\n").regions).toEqual([
			{ kind: "stable", text: "a\nb\n", origin: "base" },
		]);
		expect(mergeThreeWay("", "", "").regions).toEqual([]);
	});
});

describe("faithfulness", () => {
	it("keeps CRLF line endings, in merged text and in conflict markers", () => {
		const base = "a\r\nb\r\nc\r\n";
		expect(mergedText(mergeThreeWay(base, "A\r\nb\r\nc\r\n", "a\r\nb\r\nC\r\n"))).toBe("A\r\nb\r\nC\r\n");
		expect(renderMerge(mergeThreeWay(base, "A\r\nb\r\nc\r\n", "X\r\nb\r\nc\r\n"))).toBe(
			"<<<<<<< mine\r\nA\r\n=======\r\nX\r\n>>>>>>> agent\r\nb\r\nc\r\n",
		);
	});

	it("keeps mixed line endings exactly", () => {
		expect(mergedText(mergeThreeWay("a\r\nb\nc\r\n", "A\r\nb\nc\r\n", "a\r\nb\nc\n"))).toBe("A\r\nb\nc\n");
	});

	it("keeps a missing final newline", () => {
		expect(mergedText(mergeThreeWay("a\nb\nc", "A\nb\nc", "a\nb\nc"))).toBe("A\nb\nc");
		expect(mergedText(mergeThreeWay("a\nb\nc", "A\nb\nc", "a\nb\nC"))).toBe("A\nb\nC");
		expect(mergedText(mergeThreeWay("a\nb\nc", "a\nb\nc\n", "A\nb\nc"))).toBe("A\nb\nc\n");
	});

	it("keeps a BOM, and merges adding or removing it like any one-sided change", () => {
		const bom = "\ufeff";
		expect(mergedText(mergeThreeWay(`${bom}a\nb\n`, `${bom}A\nb\n`, `${bom}a\nb\nc\n`))).toBe(`${bom}A\nb\nc\n`);
		// mine adds a BOM while theirs edits the first line: no conflict, both kept.
		expect(mergedText(mergeThreeWay("a\nb\n", `${bom}a\nb\n`, "A\nb\n"))).toBe(`${bom}A\nb\n`);
		// The agent drops the BOM the base had: that is its change.
		expect(mergedText(mergeThreeWay(`${bom}a\n`, `${bom}a\nb\n`, "a\n"))).toBe("a\nb\n");
		// Frontmatter after a BOM is still frontmatter (its tags merge as a set).
		expect(
			mergedText(
				mergeThreeWay(
					`${bom}---\ntags: [a]\n---\n`,
					`${bom}---\ntags: [a, b]\n---\n`,
					`${bom}---\ntags: [a, c]\n---\n`,
				),
			),
		).toBe(`${bom}---\ntags: [a, b, c]\n---\n`);
	});

	it("keeps emoji and other non-BMP text exactly", () => {
		const base = "👨‍👩‍👧 family\n𝄞 clef\n🙂\n";
		const mine = "👨‍👩‍👦 family\n𝄞 clef\n🙂\n";
		const theirs = "👨‍👩‍👧 family\n𝄞 clef\n🙃\n";
		expect(mergedText(mergeThreeWay(base, mine, theirs))).toBe("👨‍👩‍👦 family\n𝄞 clef\n🙃\n");
		const conflict = mergeThreeWay("🙂\n", "😀\n", "😃\n").regions[0];
		expect(conflict).toMatchObject({ kind: "conflict", base: "🙂\n", mine: "😀\n", theirs: "😃\n" });
	});

	it("keeps CRLF frontmatter CRLF when it combines lists", () => {
		const base = "---\r\ntags: [a]\r\nx: 1\r\n---\r\nbody\r\n";
		const result = mergeThreeWay(
			base,
			base.replace("[a]", "[a, b]"),
			base.replace("[a]", "[a, c]").replace("x: 1", "x: 2"),
		);
		expect(mergedText(result)).toBe("---\r\ntags: [a, b, c]\r\nx: 2\r\n---\r\nbody\r\n");
	});
});
