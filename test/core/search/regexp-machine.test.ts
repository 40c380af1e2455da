import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRegExp, MAX_PATTERN_LENGTH, UnsupportedPattern } from "../../../src/core/search/regexp-machine";
import { finishNow } from "../../../src/core/steps";
import { SearchBudget, SearchTooCostly } from "../../../src/core/search/search-budget";

const test = (pattern: string, text: string, budget = new SearchBudget(1e9)) =>
	finishNow(compileRegExp(pattern).matchSteps(text, budget));

/** Patterns built from what the matcher supports, over a small alphabet so they often match. */
const atom: fc.Arbitrary<string> = fc.oneof(
	fc.constantFrom(
		"a",
		"b",
		"c",
		".",
		"\\d",
		"\\w",
		"\\s",
		"\\W",
		"[ab]",
		"[^a]",
		"[a-c]",
		"[\\d-]",
		"\\b",
		"\\B",
		"^",
		"$",
		"\\n",
		"\\x61",
		"\\u0062",
		"{",
		"}",
		"]",
		"\\.",
		"[]",
		"[^]",
		"\\cJ",
	),
);
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
	node: fc.oneof(
		{ depthSize: "small" },
		atom,
		fc.tuple(tie("node"), tie("node")).map(([a, b]) => a + b),
		fc.tuple(tie("node"), tie("node")).map(([a, b]) => `(?:${a}|${b})`),
		fc
			.tuple(tie("node"), fc.constantFrom("*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "+?"))
			.map(([a, q]) => `(${a})${q}`),
	),
})).node;
const text = fc
	.array(fc.constantFrom("a", "b", "c", "1", " ", "\n", "-", "_", "."), { maxLength: 12 })
	.map((chars) => chars.join(""));

describe("compileRegExp", () => {
	it("answers as JavaScript's RegExp.test does, for every supported pattern (property)", () => {
		fc.assert(
			fc.property(pattern, text, (source, input) => {
				let native: RegExp;
				try {
					native = new RegExp(source);
				} catch {
					return; // Not valid JavaScript: refused before the matcher sees it (tested below).
				}
				expect(test(source, input), `/${source}/ on ${JSON.stringify(input)}`).toBe(native.test(input));
			}),
			{ numRuns: 3000 },
		);
	});

	it("matches the syntax JavaScript reads without the u flag", () => {
		expect(test("^a{2}$", "aa")).toBe(true);
		expect(test("a{,2}", "a{,2}")).toBe(true); // not a quantifier: literal braces
		expect(test("[\\b]", "\b")).toBe(true);
		expect(test("\\c", "\\c")).toBe(true); // no control letter: a backslash and a c
		expect(test("\\u{2}", "uu")).toBe(true);
		expect(test("(?<year>\\d{4})-\\d\\d", "on 2026-11")).toBe(true);
		expect(test(".", "\n")).toBe(false);
		expect(test("^$", "")).toBe(true);
	});

	it("refuses what needs backtracking, and says why", () => {
		for (const [source, reason] of [
			["(a)\\1", "back-references"],
			["(?<n>a)\\k<n>", "named back-references"],
			["a(?=b)", "lookahead"],
			["(?<!a)b", "lookahead and lookbehind"],
			["\\01", "octal"],
		] as const) {
			expect(() => compileRegExp(source), source).toThrow(UnsupportedPattern);
			expect(() => compileRegExp(source), source).toThrow(reason);
		}
	});

	it("refuses invalid syntax with JavaScript's own message", () => {
		expect(() => compileRegExp("(a")).toThrow(/Unterminated group/);
		expect(() => compileRegExp("*a")).toThrow(UnsupportedPattern);
	});

	it("bounds the pattern before any parser sees it: length, nesting, and expanded repeats", () => {
		expect(() => compileRegExp("a".repeat(MAX_PATTERN_LENGTH + 1))).toThrow("longer than");
		expect(() => compileRegExp("(".repeat(40) + ")".repeat(40))).toThrow("nests groups");
		expect(() => compileRegExp("(a{1000}){1000}")).toThrow("expands to more than");
	});

	it("runs patterns that make backtracking engines explode in steps linear in the text", () => {
		for (const source of ["^(a+)+$", "^(a|a)*$", "(a*)*b", "^(.*a){12}$", "^(\\w+\\s?)*$"]) {
			const budget = new SearchBudget(1e9);
			const input = "a".repeat(5_000) + "!";
			expect(test(source, input, budget), source).toBe(false);
			// A few program steps per character, never a number that grows with the square or the power of it.
			expect(budget.used, source).toBeLessThan(200 * input.length);
		}
	});

	it("charges the budget as it runs, and stops when it is spent", () => {
		expect(() => test("(a|b)*c", "ab".repeat(10_000), new SearchBudget(1_000))).toThrow(SearchTooCostly);
	});

	it("gives the caller a turn during a long text", () => {
		const steps = compileRegExp("z").matchSteps("a".repeat(100_000) + "z", new SearchBudget(1e9));
		let turns = 0;
		let next = steps.next();
		while (!next.done) {
			turns++;
			next = steps.next();
		}
		expect(next.value).toBe(true);
		expect(turns).toBeGreaterThan(1);
	});
});
