import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findFrontmatter, readFrontmatter } from "../../../src/core/markdown/frontmatter";
import { splitLines } from "../../../src/core/markdown/lines";
import { splitFrontmatter } from "../../../src/core/merge/frontmatter";

const data = (content: string) => readFrontmatter(content).data;

describe("readFrontmatter", () => {
	it("parses a YAML frontmatter block into plain data", () => {
		const note = "---\ntitle: Plan\ntags: [a, b]\ncount: 3\ndraft: true\nnested:\n  key: value\n---\n# Body\n";
		expect(data(note)).toEqual({ title: "Plan", tags: ["a", "b"], count: 3, draft: true, nested: { key: "value" } });
	});

	it("returns {} when there is no frontmatter block", () => {
		expect(data("")).toEqual({});
		expect(data("# Just a note\n")).toEqual({});
		expect(data("title: not frontmatter\n")).toEqual({});
	});

	it("only recognizes a block that starts on the very first line", () => {
		expect(data("\n---\ntitle: x\n---\n")).toEqual({});
		expect(data(" ---\ntitle: x\n---\n")).toEqual({});
		expect(data("text\n---\ntitle: x\n---\n")).toEqual({});
	});

	it("returns {} for an unterminated block", () => {
		expect(data("---\ntitle: x\n")).toEqual({});
		expect(data("---\ntitle: x\n--\n")).toEqual({});
	});

	it("serves bad YAML as null with a warning", () => {
		for (const note of [
			"---\ntitle: [unclosed\n---\nbody",
			"---\n: : :\n  - bad\n indent\n---\n",
			"---\na: 1\na: 2\n---\n",
			"---\n\tkey: tab-indented\n---\n",
		]) {
			const read = readFrontmatter(note);
			expect(read.data, note).toBeNull();
			expect(read.warning, note).toMatch(/not valid YAML/);
		}
	});

	it("serves YAML that is not a mapping as null with a warning, and an empty block as no keys", () => {
		for (const note of ["---\n- a\n- b\n---\n", "---\njust a string\n---\n", "---\n42\n---\n"]) {
			expect(readFrontmatter(note)).toEqual({ data: null, warning: expect.stringMatching(/not a set of keys/) });
		}
		expect(data("---\n~\n---\n")).toEqual({});
		expect(data("---\n\n---\n")).toEqual({});
	});

	it("never hands deeply nested or huge frontmatter to the parser (it could take the process down)", () => {
		for (const yaml of [
			"a: " + "[".repeat(60_000),
			"a: " + "{".repeat(100) + "}".repeat(100),
			"a:\n" + "- ".repeat(200) + "x",
			"a: |\n" + " ".repeat(300) + "x",
			"a: " + "x".repeat(300 * 1024),
		]) {
			const read = readFrontmatter(`---\n${yaml}\n---\nbody`);
			expect(read.data).toBeNull();
			expect(read.warning).toMatch(/was not read because/);
		}
		// Ordinary nesting, and a few hundred wiki-links, are read.
		expect(data("---\na:\n  b:\n    - [1, [2, {c: 3}]]\n---\n")).toEqual({ a: { b: [[1, [2, { c: 3 }]]] } });
		const links = Array.from({ length: 200 }, (_, i) => `"[[Note ${i}]]"`).join(", ");
		expect((data(`---\nrelated: [${links}]\n---\n`) as { related: string[] }).related).toHaveLength(200);
	});

	it("parses CRLF frontmatter", () => {
		expect(data("---\r\ntitle: Plan\r\ntags:\r\n  - a\r\n---\r\nBody\r\n")).toEqual({ title: "Plan", tags: ["a"] });
	});

	it("parses frontmatter after a byte-order mark", () => {
		expect(data("\ufeff---\ntitle: Plan\n---\n")).toEqual({ title: "Plan" });
		expect(data("\ufeff---\r\ntitle: Plan\r\n---\r\n")).toEqual({ title: "Plan" });
	});

	it("accepts ... as the closing fence, trailing spaces on it, and a note that ends right after it", () => {
		expect(data("---\ntitle: a\n...\nbody")).toEqual({ title: "a" });
		expect(data("---\ntitle: a\n---  \nbody")).toEqual({ title: "a" });
		expect(data("---\ntitle: a\n---")).toEqual({ title: "a" });
	});

	it("does not treat a longer dash line or text after the fence as the closing fence", () => {
		expect(data("---\ntitle: a\n---x\n")).toEqual({});
		expect(data("---\ntitle: a\n----\n")).toEqual({});
	});

	it("stops at the first closing fence, leaving later --- lines to the body", () => {
		expect(data("---\ntitle: a\n---\nbody\n---\nmore: b\n---\n")).toEqual({ title: "a" });
	});

	it("refuses alias bombs instead of expanding them", () => {
		const lines = ["a: &a [x, x, x, x, x, x, x, x, x]"];
		for (let i = 1; i < 10; i++)
			lines.push(
				`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
					.fill(`*${String.fromCharCode(96 + i)}`)
					.join(", ")}]`,
			);
		const bomb = `---\n${lines.join("\n")}\n---\n`;
		expect(data(bomb)).toBeNull();
	});

	it("does not let a __proto__ key pollute prototypes", () => {
		const data = readFrontmatter("---\n__proto__:\n  polluted: yes\n---\n");
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
	});

	it("never throws, and returns a plain object or null with a warning (property)", () => {
		const yamlish = fc.array(
			fc.constantFrom(
				"---",
				"...",
				"a: 1",
				"- x",
				": ",
				"[",
				"{",
				"&a",
				"*a",
				"\t",
				"  b: 2",
				"\r",
				"\ufeff",
				"'",
				'"',
			),
			{ maxLength: 12 },
		);
		fc.assert(
			fc.property(
				fc.oneof(
					fc.string({ unit: "binary" }),
					yamlish.map((parts) => parts.join("\n")),
				),
				(content) => {
					const read = readFrontmatter(content);
					if (read.data === null) expect(read.warning).toBeTruthy();
					else {
						expect(typeof read.data).toBe("object");
						expect(Array.isArray(read.data)).toBe(false);
					}
				},
			),
			{ numRuns: 300 },
		);
	});

	it("is found by one rule everywhere: reads, PATCH and the merge agree on where it ends (property)", () => {
		const parts = fc.array(
			fc.constantFrom("---", "--- ", "...", "----", " ---", "\ufeff---", "a: 1", "", "body", "\r"),
			{ maxLength: 8 },
		);
		const eols = fc.constantFrom("\n", "\r\n");
		fc.assert(
			fc.property(parts, eols, fc.boolean(), (lines, eol, endsWithEol) => {
				const content = lines.join(eol) + (endsWithEol && lines.length > 0 ? eol : "");
				const block = findFrontmatter(content);
				const split = splitFrontmatter(splitLines(content));
				expect(split === null, content).toBe(block === null);
				if (block && split) expect(split.block.join("")).toBe(content.slice(0, block.end));
				// A read finds keys only where there is a block.
				if (!block) expect(readFrontmatter(content).data).toEqual({});
			}),
			{ numRuns: 500 },
		);
	});
});
