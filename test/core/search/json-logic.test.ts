import { describe, expect, it } from "vitest";
import { evaluate, isSearchHit, JsonLogicError, LogicSession } from "../../../src/core/search/json-logic";
import { ValueTooLarge } from "../../../src/core/search/json-logic-values";
import { SearchBudget, SearchTooCostly } from "../../../src/core/search/search-budget";
import { finishNow } from "../../../src/core/steps";

const note = {
	path: "journal/2026-01-15.md",
	content: "# My note\n\nSome content here.",
	tags: ["daily", "work"],
	frontmatter: { status: "done", url: "https://example.com", priority: 2, "url-glob": "https://example.com/*" },
	stat: { ctime: 1705276800000, mtime: 1705363200000, size: 1024 },
	links: ["projects/foo.md"],
	backlinks: ["index.md"],
	unresolvedLinks: ["not-yet-created.md"],
};
const run = (logic: unknown, data: unknown = note, budget = new SearchBudget(1e9)) =>
	finishNow(evaluate(logic, data, new LogicSession(budget)));

describe("JsonLogic over a note", () => {
	it("answers the Local REST API's documented examples", () => {
		expect(run({ in: ["work", { var: "tags" }] })).toBe(true);
		expect(run({ "==": [{ var: "frontmatter.status" }, "done"] })).toBe(true);
		expect(run({ glob: ["journal/*", { var: "path" }] })).toBe(true);
		expect(run({ regexp: ["^journal/", { var: "path" }] })).toBe(true);
		expect(run({ ">": [{ var: "stat.mtime" }, 1704067200000] })).toBe(true);
		expect(run({ and: [{ in: ["work", { var: "tags" }] }, { "==": [{ var: "frontmatter.status" }, "done"] }] })).toBe(
			true,
		);
		expect(
			run({
				or: [
					{ "===": [{ var: "frontmatter.url" }, "https://nope/"] },
					{ glob: [{ var: "frontmatter.url-glob" }, "https://example.com/x"] },
				],
			}),
		).toBe(true);
	});

	it("evaluates the standard operations as json-logic-js does", () => {
		expect(
			run({
				if: [
					{ "<": [{ var: "frontmatter.priority" }, 1] },
					"low",
					{ "<": [1, { var: "frontmatter.priority" }, 3] },
					"mid",
					"high",
				],
			}),
		).toBe("mid");
		expect(run({ map: [{ var: "tags" }, { cat: ["#", { var: "" }] }] })).toEqual(["#daily", "#work"]);
		expect(run({ filter: [{ var: "tags" }, { "!=": [{ var: "" }, "daily"] }] })).toEqual(["work"]);
		expect(run({ reduce: [[1, 2, 3], { "+": [{ var: "current" }, { var: "accumulator" }] }, 0] })).toBe(6);
		expect(run({ all: [[], true] })).toBe(false);
		expect(run({ none: [[], true] })).toBe(true);
		expect(run({ some: [{ var: "links" }, { in: ["foo", { var: "" }] }] })).toBe(true);
		expect(run({ missing: ["frontmatter.status", "frontmatter.owner"] })).toEqual(["frontmatter.owner"]);
		expect(run({ missing_some: [1, ["frontmatter.owner", "frontmatter.status"]] })).toEqual([]);
		expect(run({ substr: [{ var: "path" }, 0, -3] })).toBe("journal/2026-01-15");
		expect(run({ merge: [[1], 2, [[3]]] })).toEqual([1, 2, [3]]);
		expect(run({ "==": [1, "1"] })).toBe(true);
		expect(run({ "===": [1, "1"] })).toBe(false);
		expect(run({ var: ["frontmatter.owner", "nobody"] })).toBe("nobody");
		expect(run({ var: "tags.length" })).toBe(2);
		expect(run({ log: "x" })).toBe("x");
		expect(run({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 }); // two keys: data, not an operation
	});

	it("sees only the data's own values, never its prototype", () => {
		expect(run({ var: "constructor" })).toBeNull();
		expect(run({ var: "path.constructor" })).toBeNull();
		expect(run({ var: "frontmatter.__proto__" })).toBeNull();
		expect(run({ var: "toString" })).toBeNull();
	});

	it("refuses operations it does not know (json-logic-js 2.0 has no `method`)", () => {
		expect(() => run({ method: [{ var: "path" }, "toUpperCase"] })).toThrow(
			new JsonLogicError("Unrecognized operation method"),
		);
		expect(() => run({ "Math.abs": [1] })).toThrow(JsonLogicError);
		expect(() => run({ __proto__: [1] })).not.toThrow(); // a literal {} with no own key: plain data
		expect(() => run(JSON.parse('{"__proto__": [1]}'))).toThrow("Unrecognized operation __proto__");
	});

	it("answers false for glob and regexp on anything but two strings, and refuses a pattern it will not run", () => {
		expect(run({ regexp: ["a", { var: "stat.size" }] })).toBe(false);
		expect(run({ glob: [1, "1"] })).toBe(false);
		expect(() => run({ regexp: ["(a)\\1", { var: "path" }] })).toThrow(
			/regexp pattern "\(a\)\\\\1" cannot be used: back-references/,
		);
		expect(() => run({ regexp: ["(", { var: "path" }] })).toThrow(JsonLogicError);
	});

	it("bounds what a query builds and what it costs", () => {
		// Doubling a string sixty times would need an exabyte: it is refused at the size bound, long before.
		const doubling = {
			reduce: [
				Array.from({ length: 60 }, (_, i) => i),
				{ cat: [{ var: "accumulator" }, { var: "accumulator" }] },
				"xxxxxxxxxxxxxxxx",
			],
		};
		expect(() => run(doubling)).toThrow(ValueTooLarge);
		expect(() =>
			run({ map: [Array.from({ length: 1000 }, () => 1), { "+": [1, 2] }] }, note, new SearchBudget(1_000)),
		).toThrow(SearchTooCostly);
		const growing = {
			reduce: [Array.from({ length: 400 }, () => 0), { merge: [{ var: "accumulator" }, { var: "accumulator" }] }, [1]],
		};
		expect(() => run(growing)).toThrow(ValueTooLarge);
	});
});

describe("isSearchHit", () => {
	it("keeps what the Local REST API keeps: not null, false, 0, empty string, [] or {}", () => {
		for (const value of [undefined, null, false, 0, "", [], {}, NaN])
			expect(isSearchHit(value), JSON.stringify(value)).toBe(false);
		for (const value of [true, 1, "x", [0], { a: 0 }]) expect(isSearchHit(value), JSON.stringify(value)).toBe(true);
	});
});
