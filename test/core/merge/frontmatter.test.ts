import { describe, expect, it } from "vitest";
import { splitLines } from "../../../src/core/markdown/lines";
import { mergeFrontmatter, splitFrontmatter } from "../../../src/core/merge/frontmatter";
import { mergeLines } from "../../../src/core/merge/line-merge";
import type { DraftRegion } from "../../../src/core/merge/types";

function merge(base: string, mine: string, theirs: string): DraftRegion[] {
	return mergeFrontmatter(splitLines(base), splitLines(mine), splitLines(theirs));
}

function gitWould(base: string, mine: string, theirs: string): DraftRegion[] {
	return mergeLines(splitLines(base), splitLines(mine), splitLines(theirs), { markdown: false });
}

const isClean = (regions: DraftRegion[]) => regions.every((region) => region.kind === "stable");
const text = (regions: DraftRegion[]) =>
	regions.map((region) => (region.kind === "stable" ? region.text : "")).join("");

describe("splitFrontmatter", () => {
	it("splits a leading --- block from the body", () => {
		expect(splitFrontmatter(splitLines("---\na: 1\n---\nbody\n"))).toEqual({
			block: ["---\n", "a: 1\n", "---\n"],
			body: ["body\n"],
		});
		expect(splitFrontmatter(splitLines("---\r\na: 1\r\n...\r\n"))).toEqual({
			block: ["---\r\n", "a: 1\r\n", "...\r\n"],
			body: [],
		});
		expect(splitFrontmatter(splitLines("---\na: 1\n---"))).toEqual({ block: ["---\n", "a: 1\n", "---"], body: [] });
	});

	it("finds none without an opening line first or a closing line", () => {
		expect(splitFrontmatter(splitLines("text\n---\na: 1\n---\n"))).toBeNull();
		expect(splitFrontmatter(splitLines("---\na: 1\n"))).toBeNull();
		expect(splitFrontmatter(splitLines("--- \na: 1\n---\n"))).not.toBeNull();
		expect(splitFrontmatter(splitLines("----\na: 1\n---\n"))).toBeNull();
	});
});

describe("mergeFrontmatter", () => {
	it("leaves changes to neighbouring keys on each side to git's conflict", () => {
		const base = "---\ntitle: A\nstatus: draft\n---\n";
		const mine = "---\ntitle: B\nstatus: draft\n---\n";
		const theirs = "---\ntitle: A\nstatus: done\n---\n";
		expect(isClean(gitWould(base, mine, theirs))).toBe(false);
		expect(merge(base, mine, theirs)).toEqual(gitWould(base, mine, theirs));
	});

	it("merges tags added on both sides (git would conflict), marked as the tags rule with both blocks", () => {
		const base = "---\ntags:\n  - a\n---\n";
		const mine = "---\ntags:\n  - a\n  - b\n---\n";
		const theirs = "---\ntags:\n  - a\n  - c\n---\n";
		expect(isClean(gitWould(base, mine, theirs))).toBe(false);
		expect(merge(base, mine, theirs)).toEqual([
			{
				kind: "stable",
				text: "---\ntags:\n  - a\n  - b\n  - c\n---\n",
				origin: "both",
				base,
				rule: "tags",
				mine,
				theirs,
			},
		]);
	});

	it("merges one side's key next to a key both changed alike, marked as the frontmatter rule", () => {
		const base = "---\ntitle: A\nstatus: draft\n---\n";
		const mine = "---\ntitle: B\nstatus: done\n---\n";
		const theirs = "---\ntitle: B\nstatus: draft\n---\n";
		expect(isClean(gitWould(base, mine, theirs))).toBe(false);
		expect(merge(base, mine, theirs)).toEqual([
			{ kind: "stable", text: mine, origin: "both", base, rule: "frontmatter", mine, theirs },
		]);
	});

	it("returns the line merge's own regions when it reaches the same YAML", () => {
		const base = "---\na: 1\nb: 1\nc: 1\n---\n";
		const regions = merge(base, "---\na: 2\nb: 1\nc: 1\n---\n", "---\na: 1\nb: 1\nc: 2\n---\n");
		expect(regions).toEqual([
			{ kind: "stable", text: "---\n", origin: "base" },
			{ kind: "stable", text: "a: 2\n", origin: "mine", base: "a: 1\n" },
			{ kind: "stable", text: "b: 1\n", origin: "base" },
			{ kind: "stable", text: "c: 2\n", origin: "theirs", base: "c: 1\n" },
			{ kind: "stable", text: "---\n", origin: "base" },
		]);
	});

	it("prefers the line merge when it only differs in formatting from the YAML merge", () => {
		// Removing a tag at the top and adding one at the bottom: both merges agree on the data; the line merge keeps mine's indentation.
		const base = "---\ntags:\n- a\n- b\n- c\n- d\n---\n";
		const regions = merge(base, "---\ntags:\n- b\n- c\n- d\n---\n", "---\ntags:\n- a\n- b\n- c\n- d\n- e\n---\n");
		expect(text(regions)).toBe("---\ntags:\n- b\n- c\n- d\n- e\n---\n");
	});

	it("reports a key changed differently on both sides as a frontmatter conflict", () => {
		const base = "---\ntitle: A\nn: 1\n---\n";
		const regions = merge(base, "---\ntitle: B\nn: 1\n---\n", "---\ntitle: C\nn: 1\n---\n");
		expect(regions.filter((region) => region.kind === "conflict")).toEqual([
			{ kind: "conflict", reason: "frontmatter", base: "title: A\n", mine: "title: B\n", theirs: "title: C\n" },
		]);
	});

	it("turns the whole block into a conflict when git would merge two edits of one key", () => {
		const base = "---\nnote: |\n  one\n  two\n  three\n---\n";
		const mine = "---\nnote: |\n  ONE\n  two\n  three\n---\n";
		const theirs = "---\nnote: |\n  one\n  two\n  THREE\n---\n";
		expect(isClean(gitWould(base, mine, theirs))).toBe(true);
		expect(merge(base, mine, theirs)).toEqual([{ kind: "conflict", reason: "frontmatter", base, mine, theirs }]);
	});

	it("falls back to the line merge when a side does not parse", () => {
		const base = "---\na: 1\nb: 1\nc: 1\n---\n";
		const mine = "---\na: [broken\nb: 1\nc: 1\n---\n";
		const theirs = "---\na: 1\nb: 1\nc: 2\n---\n";
		expect(merge(base, mine, theirs)).toEqual(gitWould(base, mine, theirs));
		expect(text(merge(base, mine, theirs))).toBe("---\na: [broken\nb: 1\nc: 2\n---\n");
	});

	it("takes one side's block verbatim when only that side changed it", () => {
		const base = "---\na: 1\n---\n";
		const changed = "---\na:    2   # odd spacing kept\n---\n";
		expect(merge(base, base, changed)).toEqual([{ kind: "stable", text: changed, origin: "theirs", base }]);
		expect(merge(base, changed, base)).toEqual([{ kind: "stable", text: changed, origin: "mine", base }]);
		expect(merge(base, changed, changed)).toEqual([{ kind: "stable", text: changed, origin: "both", base }]);
	});
});
