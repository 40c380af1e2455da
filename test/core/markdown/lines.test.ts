import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	dominantEol,
	eolOf,
	isBlankLine,
	joinLinesSteps,
	lineCount,
	LINES_PER_STEP,
	scanLines,
	splitLines,
	splitLinesSteps,
} from "../../../src/core/markdown/lines";
import { finishNow } from "../../../src/core/steps";

describe("lineCount", () => {
	it("counts lines, a last line without terminator included", () => {
		expect([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb"), lineCount("\n\n")]).toEqual([
			0, 1, 1, 2, 2,
		]);
	});
});

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
			fc
				.array(fc.constantFrom("a", "b", "\n", "\r\n", "\r", "", "😀", "\ufeff"), { maxLength: 40 })
				.map((parts) => parts.join("")),
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

describe("splitLinesSteps and joinLinesSteps", () => {
	const big = Array.from({ length: 50_000 }, (_, i) => `line ${i}\n`).join("");

	it("split as splitLines does, yielding every LINES_PER_STEP lines on the way", () => {
		const steps = splitLinesSteps(big);
		let yields = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) yields++;
		expect(next.value).toEqual(splitLines(big));
		expect(yields).toBe(Math.floor(50_000 / LINES_PER_STEP));
	});

	it("join any range back into the exact text, yielding between chunks", () => {
		const lines = splitLines(big);
		let yields = 0;
		const steps = joinLinesSteps(lines, 0, lines.length);
		let next = steps.next();
		for (; !next.done; next = steps.next()) yields++;
		expect(next.value).toBe(big);
		expect(yields).toBe(Math.ceil(50_000 / LINES_PER_STEP) - 1);
		fc.assert(
			fc.property(fc.array(fc.string(), { maxLength: 30 }), fc.nat(31), fc.nat(31), (parts, a, b) => {
				const texts = parts.map((part) => `${part}\n`);
				return finishNow(joinLinesSteps(texts, a, b)) === texts.slice(a, b).join("");
			}),
		);
	});
});

describe("scanLines", () => {
	it("gives each line's offsets and its text without the terminator, and covers the whole text (property)", () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom("a", "b c", "", "\r", "\ufeff", "🙂"), { maxLength: 8 }),
				fc.constantFrom("\n", "\r\n"),
				(parts, eol) => {
					const content = parts.join(eol);
					const lines = scanLines(content);
					expect(lines.map((line) => content.slice(line.start, line.next)).join("")).toBe(content);
					for (const line of lines) expect(content.slice(line.start, line.end)).toBe(line.text);
					expect(lines.map((line) => content.slice(line.start, line.next))).toEqual(splitLines(content));
				},
			),
		);
	});
});

describe("line endings", () => {
	it("eolOf names the first terminator, or none", () => {
		expect(eolOf("a\r\nb\n")).toBe("\r\n");
		expect(eolOf("a\nb\r\n")).toBe("\n");
		expect(eolOf("\n")).toBe("\n");
		expect(eolOf("no break")).toBeUndefined();
	});

	it("dominantEol picks what most lines use, LF on a tie", () => {
		expect(dominantEol(scanLines("a\r\nb\r\nc\n"))).toBe("\r\n");
		expect(dominantEol(scanLines("a\r\nb\n"))).toBe("\n");
		expect(dominantEol(scanLines("one line"))).toBe("\n");
	});

	it("isBlankLine accepts spaces and tabs, with or without a terminator", () => {
		expect(isBlankLine("")).toBe(true);
		expect(isBlankLine(" \t\r\n")).toBe(true);
		expect(isBlankLine(" x ")).toBe(false);
	});
});
