import { describe, expect, it } from "vitest";
import { noteTags } from "../../src/core/tags";

describe("noteTags", () => {
	it("reads a frontmatter list, without '#'", () => {
		expect(noteTags("---\ntags: [project, '#urgent', 2024]\n---\nbody\n")).toEqual(["project", "urgent", "2024"]);
		expect(noteTags("---\ntags:\n  - a\n  - b/c\n---\n")).toEqual(["a", "b/c"]);
	});

	it("reads a frontmatter string split on commas and spaces", () => {
		expect(noteTags("---\ntags: alpha, beta gamma,#delta\n---\n")).toEqual(["alpha", "beta", "gamma", "delta"]);
	});

	it("ignores frontmatter tag values that are not text or numbers, and a missing or empty key", () => {
		expect(noteTags("---\ntags: [{a: 1}, [b], null, ok]\n---\n")).toEqual(["ok"]);
		expect(noteTags("---\ntitle: x\n---\n")).toEqual([]);
		expect(noteTags("---\ntags:\n---\n")).toEqual([]);
	});

	it("adds inline tags from the body after the frontmatter ones, each once", () => {
		expect(noteTags("---\ntags: [a, b]\n---\nText #c and #a, then #d.\n#c again\n")).toEqual(["a", "b", "c", "d"]);
	});

	it("finds tags at the start of a line, in headings, in lists and nested with /", () => {
		expect(noteTags("#start\n# Heading #inhead\n- item #listed\n#area/sub-topic_x\n")).toEqual(["start", "inhead", "listed", "area/sub-topic_x"]);
	});

	it("keeps Unicode letters and ends a tag at punctuation", () => {
		expect(noteTags("Un #café, #日本語; #tag! #end.\n")).toEqual(["café", "日本語", "tag", "end"]);
	});

	it("needs whitespace or a line start before the #", () => {
		expect(noteTags("a#b http://x.test/#anchor (#paren) [[Note#Heading]] \\#escaped\n")).toEqual([]);
	});

	it("does not take a heading marker or a bare number for a tag", () => {
		expect(noteTags("# Heading\n## Sub\nIssue #123 and #2024 but #1a\n")).toEqual(["1a"]);
	});

	it("skips fenced code blocks (``` and ~~~, longer fences, unclosed ones)", () => {
		const note = ["#before", "```js", "#notatag", "```", "~~~~", "#notatag", "~~~", "still code", "~~~~", "#between", "````", "```", "#notatag", "````", "#after", "```", "#notatag to the end"].join("\n");
		expect(noteTags(note)).toEqual(["before", "between", "after"]);
	});

	it("skips inline code, of any backtick length, but not text beside it", () => {
		expect(noteTags("`#no` #yes ``#no ` #no`` #also `unclosed #seen\n")).toEqual(["yes", "also", "seen"]);
	});

	it("does not scan the frontmatter text itself for inline tags", () => {
		expect(noteTags("---\ntitle: Plan #a-yaml-comment\n---\n#body\n")).toEqual(["body"]);
	});

	it("handles CRLF notes and a note without frontmatter, and gives [] for an empty note", () => {
		expect(noteTags("---\r\ntags: [x]\r\n---\r\nline #y\r\n")).toEqual(["x", "y"]);
		expect(noteTags("just #one\n")).toEqual(["one"]);
		expect(noteTags("")).toEqual([]);
	});
});
