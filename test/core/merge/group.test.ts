import { describe, expect, it } from "vitest";
import { splitLines } from "../../../src/core/markdown/lines";
import { mergeLines } from "../../../src/core/merge/line-merge";
import type { DraftRegion } from "../../../src/core/merge/types";

function merge(base: string, mine: string, theirs: string, markdown = true): DraftRegion[] {
	return mergeLines(splitLines(base), splitLines(mine), splitLines(theirs), { markdown });
}

function text(regions: DraftRegion[]): string | null {
	if (regions.some((region) => region.kind === "conflict")) return null;
	return regions.map((region) => (region.kind === "stable" ? region.text : "")).join("");
}

const conflictReasons = (regions: DraftRegion[]) =>
	regions.flatMap((region) => (region.kind === "conflict" ? [region.reason] : []));

describe("list rule: items are units", () => {
	const base = "# Tasks\n- [ ] a\n- [ ] b\n- [ ] c\n";

	it("merges toggles of two adjacent tasks made on different sides (git would conflict)", () => {
		const mine = "# Tasks\n- [x] a\n- [ ] b\n- [ ] c\n";
		const theirs = "# Tasks\n- [ ] a\n- [x] b\n- [ ] c\n";
		expect(conflictReasons(merge(base, mine, theirs, false))).toEqual(["overlap"]);
		const regions = merge(base, mine, theirs);
		expect(text(regions)).toBe("# Tasks\n- [x] a\n- [x] b\n- [ ] c\n");
		expect(regions).toContainEqual({
			kind: "stable",
			text: "- [x] a\n",
			origin: "mine",
			base: "- [ ] a\n",
			rule: "list",
		});
		expect(regions).toContainEqual({
			kind: "stable",
			text: "- [x] b\n",
			origin: "theirs",
			base: "- [ ] b\n",
			rule: "list",
		});
	});

	it("merges three adjacent items edited alternately", () => {
		const regions = merge(base, "# Tasks\n- [x] a\n- [ ] b\n- [x] c\n", "# Tasks\n- [ ] a\n- [x] b\n- [ ] c\n");
		expect(text(regions)).toBe("# Tasks\n- [x] a\n- [x] b\n- [x] c\n");
	});

	it("merges an item changed on one side with an item added below it on the other", () => {
		expect(
			text(merge(base, "# Tasks\n- [ ] A\n- [ ] b\n- [ ] c\n", "# Tasks\n- [ ] a\n- [ ] new\n- [ ] b\n- [ ] c\n")),
		).toBe("# Tasks\n- [ ] A\n- [ ] new\n- [ ] b\n- [ ] c\n");
		expect(
			text(merge(base, "# Tasks\n- [ ] a\n- [ ] b\n- [ ] C\n", "# Tasks\n- [ ] a\n- [ ] b\n- [ ] c\n- [ ] d\n")),
		).toBe("# Tasks\n- [ ] a\n- [ ] b\n- [ ] C\n- [ ] d\n");
	});

	it("merges a deleted item with a change to its neighbour", () => {
		expect(text(merge(base, "# Tasks\n- [ ] b\n- [ ] c\n", "# Tasks\n- [ ] a\n- [x] b\n- [ ] c\n"))).toBe(
			"# Tasks\n- [x] b\n- [ ] c\n",
		);
	});

	it("works for ordered lists, other bullets and nested items", () => {
		expect(text(merge("1. a\n2. b\n", "1. A\n2. b\n", "1. a\n2. B\n"))).toBe("1. A\n2. B\n");
		expect(text(merge("* a\n* b\n", "* A\n* b\n", "* a\n* B\n"))).toBe("* A\n* B\n");
		expect(text(merge("- a\n  - b\n", "- A\n  - b\n", "- a\n  - B\n"))).toBe("- A\n  - B\n");
	});

	it("treats an item's continuation lines as part of the item", () => {
		const itemBase = "- a\n  more\n- b\n";
		// Continuation of a, and b: different items.
		expect(text(merge(itemBase, "- a\n  MORE\n- b\n", "- a\n  more\n- B\n"))).toBe("- a\n  MORE\n- B\n");
		// First line and continuation of the same item: a conflict.
		expect(conflictReasons(merge(itemBase, "- A\n  more\n- b\n", "- a\n  MORE\n- b\n"))).toEqual(["overlap"]);
	});

	it("still conflicts on two insertions at the same point", () => {
		expect(conflictReasons(merge(base, `${base}- [ ] mine\n`, `${base}- [ ] theirs\n`))).toEqual(["overlap"]);
	});

	it("still conflicts when both sides change the same item", () => {
		expect(
			conflictReasons(merge(base, "# Tasks\n- [x] a\n- [ ] b\n- [ ] c\n", "# Tasks\n- [ ] A\n- [ ] b\n- [ ] c\n")),
		).toEqual(["overlap"]);
	});

	it("does not apply when a change turns an item into a paragraph", () => {
		expect(
			conflictReasons(merge(base, "# Tasks\nplain text\n- [ ] b\n- [ ] c\n", "# Tasks\n- [ ] a\n- [x] b\n- [ ] c\n")),
		).toEqual(["overlap"]);
	});

	it("does not apply to the line above the list", () => {
		expect(
			conflictReasons(merge(base, "# Todo\n- [ ] a\n- [ ] b\n- [ ] c\n", "# Tasks\n- [x] a\n- [ ] b\n- [ ] c\n")),
		).toEqual(["overlap"]);
	});

	it("does not apply to an insertion between an item and its continuation", () => {
		const itemBase = "- a\n  more\n";
		expect(conflictReasons(merge(itemBase, "- A\n  more\n", "- a\n- new\n  more\n"))).toEqual(["overlap"]);
	});
});

describe("fence rule: code blocks are never merged inside", () => {
	const base = "text\n```js\nconst a = 1;\nconst b = 2;\nconst c = 3;\n```\nafter\n";

	it("conflicts on changes to different lines of one block (git would merge them)", () => {
		const mine = base.replace("a = 1", "a = 10");
		const theirs = base.replace("c = 3", "c = 30");
		expect(text(merge(base, mine, theirs, false))).toBe(base.replace("a = 1", "a = 10").replace("c = 3", "c = 30"));
		expect(merge(base, mine, theirs)).toEqual([
			{ kind: "stable", text: "text\n", origin: "base" },
			{
				kind: "conflict",
				reason: "fence",
				base: base.slice(5, -6),
				mine: mine.slice(5, -6),
				theirs: theirs.slice(5, -6),
			},
			{ kind: "stable", text: "after\n", origin: "base" },
		]);
	});

	it("takes a change made inside the block by one side only", () => {
		const mine = base.replace("b = 2", "b = 20");
		expect(text(merge(base, mine, base.replace("after", "AFTER")))).toBe(mine.replace("after", "AFTER"));
	});

	it("accepts the same change made on both sides", () => {
		const both = base.replace("b = 2", "b = 20");
		expect(text(merge(base, both, both))).toBe(both);
	});

	it("conflicts when one side changes the fence itself and the other the code", () => {
		expect(conflictReasons(merge(base, base.replace("```js", "~~~js"), base.replace("c = 3", "c = 4")))).toEqual([
			"fence",
		]);
		expect(conflictReasons(merge(base, base.replace("```js", "````js"), base.replace("c = 3", "c = 4")))).toEqual([
			"fence",
		]);
		expect(conflictReasons(merge(base, base.replace("```js\n", ""), base.replace("c = 3", "c = 4")))).toEqual([
			"fence",
		]);
	});

	it("does not count a change of the info string alone as a change inside the block", () => {
		const theirs = base.replace("```js", "```ts");
		expect(text(merge(base, base.replace("c = 3", "c = 4"), theirs))).toBe(theirs.replace("c = 3", "c = 4"));
		expect(merge(base, base.replace("b = 2", "b = 20"), theirs.replace("c = 3", "c = 30"))).toContainEqual({
			kind: "stable",
			text: "```ts\n",
			origin: "theirs",
			base: "```js\n",
		});
	});

	it("keeps an insertion on the block's first line inside its span when the info string changed", () => {
		const mine = base.replace("```js\n", "```js\n// first\n");
		const theirs = base.replace("```js", "```ts").replace("c = 3", "c = 30");
		expect(conflictReasons(merge(base, mine, theirs))).toEqual(["fence"]);
	});

	it("conflicts on an insertion inside the block against an edit inside it", () => {
		expect(
			conflictReasons(merge(base, base.replace("const b", "// hi\nconst b"), base.replace("c = 3", "c = 4"))),
		).toEqual(["fence"]);
	});

	it("leaves changes just outside the block alone", () => {
		const mine = base.replace("a = 1", "a = 10");
		const theirs = base.replace("text\n", "intro\n\n").replace("after", "later");
		expect(text(merge(base, mine, theirs))).toBe(mine.replace("text\n", "intro\n\n").replace("after", "later"));
	});

	it("handles ~~~ fences and unclosed fences (which run to the end)", () => {
		const tilde = "~~~\n1\n2\n3\n~~~\n";
		expect(conflictReasons(merge(tilde, "~~~\nX\n2\n3\n~~~\n", "~~~\n1\n2\nY\n~~~\n"))).toEqual(["fence"]);
		const open = "```\n1\n2\n3\n";
		expect(conflictReasons(merge(open, "```\nX\n2\n3\n", "```\n1\n2\n3\n4\n"))).toEqual(["fence"]);
	});

	it("merges changes in two different blocks", () => {
		const two = "```\n1\n```\n\n```\n2\n```\n";
		expect(text(merge(two, "```\nA\n```\n\n```\n2\n```\n", "```\n1\n```\n\n```\nB\n```\n"))).toBe(
			"```\nA\n```\n\n```\nB\n```\n",
		);
	});
});

describe("fence rule next to git's touching rule", () => {
	it("keeps a change touching the block from outside in the block's conflict when it touches the other side's hunk", () => {
		// theirs rewrites from the opening fence to past the block; mine edits the line above it and a code line.
		const base = "above\n```\ncode\n```\nbelow\n";
		const mine = "ABOVE\n```\nCODE\n```\nbelow\n";
		const theirs = "above\n~~~\nkode\n~~~\nBELOW\n";
		const regions = merge(base, mine, theirs);
		expect(conflictReasons(regions)).toEqual(["fence"]);
		expect(regions[0]).toMatchObject({ kind: "conflict", base, mine, theirs });
	});
});
