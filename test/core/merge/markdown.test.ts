import { describe, expect, it } from "vitest";
import { splitLines } from "../../../src/core/markdown/lines";
import {
	abandonedIndents,
	analyzeBase,
	analyzeBaseSteps,
	isItemStart,
	isListish,
	sameFenceOpening,
} from "../../../src/core/merge/markdown";

describe("isItemStart", () => {
	it.each([
		"- a\n",
		"* a",
		"+ a\r\n",
		"- [ ] task\n",
		"- [x] done\n",
		"1. one\n",
		"12) twelve\n",
		"  - nested\n",
		"-\n",
	])("sees %j as a list item", (line) => expect(isItemStart(line)).toBe(true));

	it.each(["---\n", "* * *\n", "-a\n", "text\n", "1.5 apples\n", "\n", "#- heading\n"])(
		"does not see %j as a list item",
		(line) => expect(isItemStart(line)).toBe(false),
	);
});

describe("isListish", () => {
	it("accepts items and indented continuation lines, not paragraphs or blank lines", () => {
		expect(isListish("- a\n")).toBe(true);
		expect(isListish("  more\n")).toBe(true);
		expect(isListish("para\n")).toBe(false);
		expect(isListish("   \n")).toBe(false);
	});
});

describe("analyzeBase", () => {
	it("yields every few thousand lines on a huge base (a 5 MB merge stays in slices), with the same structure", () => {
		const text = Array.from({ length: 30_000 }, (_, i) =>
			i % 500 === 0 ? "```\n" : i % 7 === 0 ? "- item\n" : i % 11 === 0 ? "  more\n" : "para\n",
		).join("");
		const lines = splitLines(text);
		const steps = analyzeBaseSteps(lines);
		let yields = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) yields++;
		expect(yields).toBeGreaterThanOrEqual(5);
		expect(next.value).toEqual(analyzeBase(lines));
	});

	it("finds fenced blocks with both fence kinds, and leaves lists inside them alone", () => {
		const lines = splitLines("intro\n```js\n- not an item\n```\n~~~~\ncode\n~~~~\n- item\n");
		const structure = analyzeBase(lines);
		expect(structure.fences).toEqual([
			{ start: 1, end: 4, closed: true },
			{ start: 4, end: 7, closed: true },
		]);
		expect(Array.from(structure.fenceOf)).toEqual([-1, 0, 0, 0, 1, 1, 1, -1]);
		expect(Array.from(structure.itemStart)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
	});

	it("needs a closing fence at least as long as the opening one, of the same character", () => {
		const structure = analyzeBase(splitLines("````\n```\n~~~~\n````\nafter\n"));
		expect(structure.fences).toEqual([{ start: 0, end: 4, closed: true }]);
	});

	it("runs an unclosed fence to the end", () => {
		expect(analyzeBase(splitLines("a\n```\nb\nc")).fences).toEqual([{ start: 1, end: 4, closed: false }]);
	});

	it("does not open a fence on inline code", () => {
		expect(analyzeBase(splitLines("``` not `a` fence\nx\n")).fences).toEqual([]);
	});

	it("marks items and their indented continuations, but not lazy paragraph lines or blank lines", () => {
		const structure = analyzeBase(splitLines("- a\n  more\n\n- b\nlazy\n  indented\npara\n"));
		expect(Array.from(structure.itemStart)).toEqual([1, 0, 0, 1, 0, 0, 0]);
		expect(Array.from(structure.inItem)).toEqual([1, 1, 0, 1, 0, 0, 0]);
	});

	it("numbers lists: a paragraph or a code block between items starts a new one", () => {
		const structure = analyzeBase(splitLines("- a\n  - a1\n\n- b\npara\n- c\n```\n- x\n```\n- d\n"));
		expect(Array.from(structure.listOf)).toEqual([0, 0, -1, 0, -1, 1, -1, -1, -1, 2]);
	});
});

describe("abandonedIndents", () => {
	const base = splitLines("* a\n  * b\n  * c\n");
	const structure = analyzeBase(base);

	it("names the indents list lines were moved away from", () => {
		const side = splitLines("* a\n    * b\n    * c\n");
		expect([...(abandonedIndents(base, 1, 3, side, 1, 3, structure) ?? [])]).toEqual(["  "]);
		// A bigger hunk takes the other path to the same answer.
		const long = splitLines("* a\n  * b\n  * c\n  * d\n  * e\n");
		const moved = splitLines("* a\n    * b\n    * c\n    * d\n    * e\n");
		expect([...(abandonedIndents(long, 1, 5, moved, 1, 5, analyzeBase(long)) ?? [])]).toEqual(["  "]);
	});

	it("is null for edits that keep every indent, and for pure insertions or deletions", () => {
		const side = splitLines("* a\n  * B\n  * c\n  * d\n");
		expect(abandonedIndents(base, 1, 3, side, 1, 4, structure)).toBeNull();
		expect(abandonedIndents(base, 1, 1, side, 1, 2, structure)).toBeNull();
		expect(abandonedIndents(base, 1, 2, side, 1, 1, structure)).toBeNull();
		// A line that stays where it was is not moved, even if its text also appears at another indent.
		const both = splitLines("* a\n  * b\n    * b\n");
		expect(abandonedIndents(both, 1, 3, splitLines("    * b\n  * b\n"), 0, 2, analyzeBase(both))).toBeNull();
	});
});

describe("sameFenceOpening", () => {
	it("accepts a change of the info string alone", () => {
		expect(sameFenceOpening("```rust\n", "```rust,ignore\n")).toBe(true);
		expect(sameFenceOpening("  ~~~\n", "  ~~~ python\n")).toBe(true);
		expect(sameFenceOpening("```js\r\n", "```\n")).toBe(true);
	});

	it("refuses another marker, length or indent, inline code, or a line that opens nothing", () => {
		expect(sameFenceOpening("```js\n", "~~~js\n")).toBe(false);
		expect(sameFenceOpening("```js\n", "````js\n")).toBe(false);
		expect(sameFenceOpening("```js\n", " ```js\n")).toBe(false);
		expect(sameFenceOpening("```js\n", "``` a `b`\n")).toBe(false);
		expect(sameFenceOpening("```js\n", "js\n")).toBe(false);
	});
});
