import { describe, expect, it } from "vitest";
import { compileGlob, globSource } from "../../../src/core/search/glob";
import { SearchBudget } from "../../../src/core/search/search-budget";
import { finishNow } from "../../../src/core/steps";

const matches = (glob: string, value: string) => finishNow(compileGlob(glob).matchSteps(value, new SearchBudget(1e9)));

describe("glob", () => {
	it("matches the whole value, * being any run of characters (the Local REST API's own examples)", () => {
		expect(matches("*.foo", "bar.foo")).toBe(true);
		expect(matches("*.bar", "bar.foo")).toBe(false);
		expect(matches("journal/*", "journal/2026/11/27.md")).toBe(true);
		expect(matches("journal/*", "notes/journal/x.md")).toBe(false);
		expect(matches("https://myurl.com/some/path/", "https://myurl.com/some/path/")).toBe(true);
	});

	it("translates as glob-to-regexp does by default: ?, [, ], {, } and , are plain characters; * stops at a line break", () => {
		expect(globSource("a?[b]{c,d}.*")).toBe("^a\\?\\[b\\]\\{c\\,d\\}\\..*$");
		expect(matches("a?", "ab")).toBe(false);
		expect(matches("a?", "a?")).toBe(true);
		expect(matches("{a,b}", "{a,b}")).toBe(true);
		expect(matches("*", "one\ntwo")).toBe(false);
		expect(matches("a**b", "axxb")).toBe(true);
	});

	it("passes a backslash through to the regular expression, as glob-to-regexp does", () => {
		expect(matches("\\d*", "7 days")).toBe(true);
		expect(() => compileGlob("\\1")).toThrow("back-references");
	});
});
