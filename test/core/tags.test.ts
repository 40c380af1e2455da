import { describe, expect, it } from "vitest";
import { countTags, MAX_TAG_USES_PER_NOTE, noteTags, tagOccurrences, tagPage } from "../../src/core/tags";

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
		expect(noteTags("#start\n# Heading #inhead\n- item #listed\n#area/sub-topic_x\n")).toEqual([
			"start",
			"inhead",
			"listed",
			"area/sub-topic_x",
		]);
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
		const note = [
			"#before",
			"```js",
			"#notatag",
			"```",
			"~~~~",
			"#notatag",
			"~~~",
			"still code",
			"~~~~",
			"#between",
			"````",
			"```",
			"#notatag",
			"````",
			"#after",
			"```",
			"#notatag to the end",
		].join("\n");
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

	it("also reads a singular `tag` key, in any case, as Obsidian's parseFrontMatterTags does", () => {
		expect(noteTags("---\ntag: solo\nTags: [Two]\n---\n")).toEqual(["solo", "Two"]);
	});
});

describe("tagOccurrences", () => {
	it("keeps every use, frontmatter first, as Obsidian's getAllTags does", () => {
		expect(tagOccurrences("---\ntags: [a, b]\n---\n#a text #c #a\n`#code` #c\n")).toEqual([
			"a",
			"b",
			"a",
			"c",
			"a",
			"c",
		]);
	});

	it("takes at most MAX_TAG_USES_PER_NOTE uses from one note", () => {
		expect(tagOccurrences("#x ".repeat(MAX_TAG_USES_PER_NOTE + 5))).toHaveLength(MAX_TAG_USES_PER_NOTE);
	});
});

describe("countTags", () => {
	it("counts every use across notes, sorted by name", () => {
		expect(countTags([["b", "a", "b"], ["a"]])).toEqual([
			{ name: "a", count: 2 },
			{ name: "b", count: 2 },
		]);
	});

	it("counts a nested tag once for itself and once for each parent, as the Local REST API does", () => {
		expect(countTags([["work/tasks/today"], ["work"], ["work/notes"]])).toEqual([
			{ name: "work", count: 3 },
			{ name: "work/notes", count: 1 },
			{ name: "work/tasks", count: 1 },
			{ name: "work/tasks/today", count: 1 },
		]);
	});

	it("keeps case apart and leaves out empty names and empty parents", () => {
		expect(countTags([["Tag", "tag", "", "/odd", "a//b"]])).toEqual([
			{ name: "/odd", count: 1 },
			{ name: "Tag", count: 1 },
			{ name: "a", count: 1 },
			{ name: "a/", count: 1 },
			{ name: "a//b", count: 1 },
			{ name: "tag", count: 1 },
		]);
	});

	it("gives [] for no notes", () => {
		expect(countTags([])).toEqual([]);
	});
});

describe("tagPage", () => {
	const all = countTags([["a", "b", "c", "d", "e"]]);

	it("gives at most `limit` tags and names the last one as `next` when more follow", () => {
		expect(tagPage(all, { limit: 2, maxChars: 1e6 })).toEqual({ tags: all.slice(0, 2), next: "b" });
		expect(tagPage(all, { after: "b", limit: 2, maxChars: 1e6 })).toEqual({ tags: all.slice(2, 4), next: "d" });
		expect(tagPage(all, { after: "d", limit: 2, maxChars: 1e6 })).toEqual({ tags: all.slice(4) });
	});

	it("starts after any name, listed or not, and gives an empty last page past the end", () => {
		expect(tagPage(all, { after: "bb", limit: 10, maxChars: 1e6 })).toEqual({ tags: all.slice(2) });
		expect(tagPage(all, { after: "z", limit: 10, maxChars: 1e6 })).toEqual({ tags: [] });
	});

	it("stops at maxChars of JSON but always moves on by one tag", () => {
		expect(tagPage(all, { limit: 10, maxChars: 1 })).toEqual({ tags: all.slice(0, 1), next: "a" });
		const page = tagPage(all, { limit: 10, maxChars: 60 });
		expect(JSON.stringify(page.tags).length).toBeLessThanOrEqual(60);
		expect(page.next).toBe(page.tags[page.tags.length - 1]!.name);
	});
});
