import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitLines } from "../../../src/core/diff/lines";

describe("splitLines", () => {
	it("returns no lines for the empty string", () => {
		expect(splitLines("")).toEqual([]);
	});

	it("keeps each line's LF terminator", () => {
		expect(splitLines("a\nb\n")).toEqual(["a\n", "b\n"]);
	});

	it("keeps a last line that has no final newline", () => {
		expect(splitLines("a\nb")).toEqual(["a\n", "b"]);
		expect(splitLines("only")).toEqual(["only"]);
	});

	it("keeps CRLF terminators intact and does not split on a lone CR", () => {
		expect(splitLines("a\r\nb\r\n")).toEqual(["a\r\n", "b\r\n"]);
		expect(splitLines("a\rb\n")).toEqual(["a\rb\n"]);
		expect(splitLines("a\r")).toEqual(["a\r"]);
	});

	it("represents blank lines as bare terminators", () => {
		expect(splitLines("\n\n\n")).toEqual(["\n", "\n", "\n"]);
		expect(splitLines("a\n\nb")).toEqual(["a\n", "\n", "b"]);
	});

	it("does not split on Unicode line separators", () => {
		expect(splitLines("a\u2028b\u2029c\u0085d")).toEqual(["a\u2028b\u2029c\u0085d"]);
	});

	it("round-trips arbitrary strings: joining the lines gives the input back", () => {
		const text = fc.oneof(
			fc.string({ unit: "binary" }),
			fc.array(fc.constantFrom("a", "b", "\n", "\r\n", "\r", "", "😀", "\ufeff"), { maxLength: 40 }).map((parts) => parts.join("")),
		);
		fc.assert(
			fc.property(text, (input) => {
				const lines = splitLines(input);
				expect(lines.join("")).toBe(input);
				// Every line but the last ends in exactly one newline; no line is empty.
				lines.forEach((line, index) => {
					expect(line.length).toBeGreaterThan(0);
					const newlines = line.split("\n").length - 1;
					if (index < lines.length - 1) {
						expect(line.endsWith("\n")).toBe(true);
						expect(newlines).toBe(1);
					} else {
						expect(newlines).toBe(line.endsWith("\n") ? 1 : 0);
					}
				});
				expect(lines.length).toBe(input.split("\n").length - (input.endsWith("\n") || input === "" ? 1 : 0));
			}),
			{ numRuns: 500 },
		);
	});
});
