import { describe, expect, it } from "vitest";
import { MAX_RANGES_PER_TEXT, prepareWordSearch } from "../../../src/core/search/word-search";

const matches = (query: string, text: string) => prepareWordSearch(query)(text)?.matches ?? null;

describe("prepareWordSearch", () => {
	// The ranges Obsidian's own prepareSimpleSearch gives for these (as obsidian-tasks recorded them from Obsidian).
	it("finds every occurrence of every word, ignoring case, in text order", () => {
		expect(matches("hello", "hello world")).toEqual([[0, 5]]);
		expect(matches("MixedCase", "mixedcase")).toEqual([[0, 9]]);
		expect(matches("gues", "Guestimate the number of guests")).toEqual([
			[0, 4],
			[25, 29],
		]);
		expect(matches("make foo", "Make the food - duplicate search words: FOOD MAKE")).toEqual([
			[0, 4],
			[9, 12],
			[40, 43],
			[45, 49],
		]);
	});

	it("needs every word, and a query of spaces matches nothing", () => {
		expect(matches("make ZZZ", "make aaaaaaa")).toBeNull();
		expect(matches("NOT PRESENT", "aaaaaaaaaaaaaaaaa")).toBeNull();
		expect(matches(" ", "a b c")).toBeNull();
		expect(matches("", "a b c")).toBeNull();
	});

	it("splits the query on spaces only, and a repeated word counts once", () => {
		expect(matches("a\tb", "a b")).toBeNull();
		expect(matches("a\tb", "xa\tb")).toEqual([[1, 4]]);
		expect(matches("ab ab AB", "ab")).toEqual([[0, 2]]);
	});

	it("does not overlap one word's occurrences", () => {
		expect(matches("aa", "aaaaa")).toEqual([
			[0, 2],
			[2, 4],
		]);
	});

	it("keeps offsets in the text searched when lower case changes a character's length", () => {
		const text = "İstanbul and istanbul";
		// "İ" lowers to "i" and a combining dot: two code units for one.
		expect(matches("stanbul", text)!.map(([from, to]) => text.slice(from, to))).toEqual(["stanbul", "stanbul"]);
		expect(matches("i\u0307stanbul", text)!.map(([from, to]) => text.slice(from, to))).toEqual(["İstanbul"]);
		expect(matches("and", text)!.map(([from, to]) => text.slice(from, to))).toEqual(["and"]);
	});

	it("scores by the occurrences found", () => {
		expect(prepareWordSearch("a")("a a a")!.score).toBe(3);
	});

	it("stops listing at the cap but still needs every word", () => {
		const text = "x ".repeat(5_000) + "needle";
		const result = prepareWordSearch("x needle")(text)!;
		expect(result.matches.length).toBe(MAX_RANGES_PER_TEXT);
		expect(prepareWordSearch("x missing")(text)).toBeNull();
	});
});
