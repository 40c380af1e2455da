import { describe, expect, it } from "vitest";
import { splitLines } from "../../../src/core/markdown/lines";
import { analyzeBase, isItemStart, isListish } from "../../../src/core/merge/markdown";

describe("isItemStart", () => {
	it.each(["- a\n", "* a", "+ a\r\n", "- [ ] task\n", "- [x] done\n", "1. one\n", "12) twelve\n", "  - nested\n", "-\n"])(
		"sees %j as a list item",
		(line) => expect(isItemStart(line)).toBe(true),
	);

	it.each(["---\n", "* * *\n", "-a\n", "text\n", "1.5 apples\n", "\n", "#- heading\n"])("does not see %j as a list item", (line) =>
		expect(isItemStart(line)).toBe(false),
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
});
