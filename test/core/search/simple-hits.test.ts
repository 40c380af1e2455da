import { describe, expect, it } from "vitest";
import {
	basenameOf,
	clampContextLength,
	contextLengthOf,
	MAX_CONTEXT_LENGTH,
	MAX_MATCHES_PER_NOTE,
	simpleHit,
} from "../../../src/core/search/simple-hits";
import { prepareWordSearch } from "../../../src/core/search/word-search";

describe("simpleHit", () => {
	it("reports content matches with contextLength characters of content on each side, offsets in the content", () => {
		const content = "# Alpha\n\nA second paragraph with unique text: xylophone-alpha-unique.\n";
		const hit = simpleHit("dir/fixture.md", content, prepareWordSearch("xylophone-alpha-unique"), 10)!;
		expect(hit.filename).toBe("dir/fixture.md");
		expect(hit.matches).toEqual([{ match: { start: 46, end: 68, source: "content" }, context: content.slice(36, 78) }]);
		expect(content.slice(46, 68)).toBe("xylophone-alpha-unique");
		expect(hit.matches[0]!.context.length).toBeLessThanOrEqual(10 * 2 + "xylophone-alpha-unique".length);
	});

	it("reports a match in the note's name against the name, without its extension", () => {
		const hit = simpleHit("Projects/Weekly plan.md", "nothing here", prepareWordSearch("plan"), 100)!;
		expect(hit.matches).toEqual([{ match: { start: 7, end: 11, source: "filename" }, context: "Weekly plan" }]);
	});

	it("needs every word somewhere in the name or the content", () => {
		expect(
			simpleHit("Plan.md", "budget", prepareWordSearch("plan budget"), 5)!.matches.map((m) => m.match.source),
		).toEqual(["filename", "content"]);
		expect(simpleHit("Plan.md", "nothing", prepareWordSearch("plan budget"), 5)).toBeNull();
	});

	it("lists at most MAX_MATCHES_PER_NOTE matches and says how many there were", () => {
		const hit = simpleHit("a.md", "word ".repeat(500), prepareWordSearch("word"), 0)!;
		expect(hit.matches.length).toBe(MAX_MATCHES_PER_NOTE);
		expect(hit.matchCount).toBe(500);
		expect(hit.matches[0]!.context).toBe("word");
	});
});

describe("contextLengthOf", () => {
	it("reads a number as parseInt does, defaulting to 100, and keeps it within 0 and the cap", () => {
		expect(contextLengthOf(null)).toBe(100);
		expect(contextLengthOf("abc")).toBe(100);
		expect(contextLengthOf("12px")).toBe(12);
		expect(contextLengthOf("-5")).toBe(0);
		expect(contextLengthOf("99999999")).toBe(MAX_CONTEXT_LENGTH);
	});
});

describe("clampContextLength", () => {
	it("takes a JSON number as whole characters within 0 and the cap", () => {
		expect(clampContextLength(2.7)).toBe(2);
		expect(clampContextLength(-1)).toBe(0);
		expect(clampContextLength(Number.MAX_VALUE)).toBe(MAX_CONTEXT_LENGTH);
		expect(clampContextLength(NaN)).toBe(100);
	});
});

describe("basenameOf", () => {
	it("is the file name without its last extension", () => {
		expect(basenameOf("a/b/Plan.v2.md")).toBe("Plan.v2");
		expect(basenameOf(".md")).toBe(".md");
	});
});
