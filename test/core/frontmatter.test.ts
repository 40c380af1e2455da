import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";

describe("readFrontmatter", () => {
	it("parses a YAML frontmatter block into plain data", () => {
		const note = "---\ntitle: Plan\ntags: [a, b]\ncount: 3\ndraft: true\nnested:\n  key: value\n---\n# Body\n";
		expect(readFrontmatter(note)).toEqual({ title: "Plan", tags: ["a", "b"], count: 3, draft: true, nested: { key: "value" } });
	});

	it("returns {} when there is no frontmatter block", () => {
		expect(readFrontmatter("")).toEqual({});
		expect(readFrontmatter("# Just a note\n")).toEqual({});
		expect(readFrontmatter("title: not frontmatter\n")).toEqual({});
	});

	it("only recognizes a block that starts on the very first line", () => {
		expect(readFrontmatter("\n---\ntitle: x\n---\n")).toEqual({});
		expect(readFrontmatter(" ---\ntitle: x\n---\n")).toEqual({});
		expect(readFrontmatter("text\n---\ntitle: x\n---\n")).toEqual({});
	});

	it("returns {} for an unterminated block", () => {
		expect(readFrontmatter("---\ntitle: x\n")).toEqual({});
		expect(readFrontmatter("---\ntitle: x\n--\n")).toEqual({});
	});

	it("tolerates bad YAML by returning {}", () => {
		expect(readFrontmatter("---\ntitle: [unclosed\n---\nbody")).toEqual({});
		expect(readFrontmatter("---\n: : :\n  - bad\n indent\n---\n")).toEqual({});
		expect(readFrontmatter("---\na: 1\na: 2\n---\n")).toEqual({});
		expect(readFrontmatter("---\n\tkey: tab-indented\n---\n")).toEqual({});
	});

	it("returns {} when the YAML is not a mapping", () => {
		expect(readFrontmatter("---\n- a\n- b\n---\n")).toEqual({});
		expect(readFrontmatter("---\njust a string\n---\n")).toEqual({});
		expect(readFrontmatter("---\n42\n---\n")).toEqual({});
		expect(readFrontmatter("---\n~\n---\n")).toEqual({});
		expect(readFrontmatter("---\n\n---\n")).toEqual({});
	});

	it("parses CRLF frontmatter", () => {
		expect(readFrontmatter("---\r\ntitle: Plan\r\ntags:\r\n  - a\r\n---\r\nBody\r\n")).toEqual({ title: "Plan", tags: ["a"] });
	});

	it("parses frontmatter after a byte-order mark", () => {
		expect(readFrontmatter("\ufeff---\ntitle: Plan\n---\n")).toEqual({ title: "Plan" });
		expect(readFrontmatter("\ufeff---\r\ntitle: Plan\r\n---\r\n")).toEqual({ title: "Plan" });
	});

	it("accepts ... as the closing fence, trailing spaces on it, and a note that ends right after it", () => {
		expect(readFrontmatter("---\ntitle: a\n...\nbody")).toEqual({ title: "a" });
		expect(readFrontmatter("---\ntitle: a\n---  \nbody")).toEqual({ title: "a" });
		expect(readFrontmatter("---\ntitle: a\n---")).toEqual({ title: "a" });
	});

	it("does not treat a longer dash line or text after the fence as the closing fence", () => {
		expect(readFrontmatter("---\ntitle: a\n---x\n")).toEqual({});
		expect(readFrontmatter("---\ntitle: a\n----\n")).toEqual({});
	});

	it("stops at the first closing fence, leaving later --- lines to the body", () => {
		expect(readFrontmatter("---\ntitle: a\n---\nbody\n---\nmore: b\n---\n")).toEqual({ title: "a" });
	});

	it("refuses alias bombs instead of expanding them", () => {
		const lines = ["a: &a [x, x, x, x, x, x, x, x, x]"];
		for (let i = 1; i < 10; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(", ")}]`);
		const bomb = `---\n${lines.join("\n")}\n---\n`;
		expect(readFrontmatter(bomb)).toEqual({});
	});

	it("does not let a __proto__ key pollute prototypes", () => {
		const data = readFrontmatter("---\n__proto__:\n  polluted: yes\n---\n");
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
	});

	it("never throws and always returns a plain object (property)", () => {
		const yamlish = fc.array(fc.constantFrom("---", "...", "a: 1", "- x", ": ", "[", "{", "&a", "*a", "\t", "  b: 2", "\r", "\ufeff", "'", '"'), { maxLength: 12 });
		fc.assert(
			fc.property(fc.oneof(fc.string({ unit: "binary" }), yamlish.map((parts) => parts.join("\n"))), (content) => {
				const data = readFrontmatter(content);
				expect(typeof data).toBe("object");
				expect(data).not.toBeNull();
				expect(Array.isArray(data)).toBe(false);
			}),
			{ numRuns: 300 },
		);
	});
});
