import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATX_HEADING_PATTERN, atxHeading, parseMarkdown } from "../../../src/core/markdown/structure";

/** What the pattern reads: the reference atxHeading must agree with. */
function byPattern(line: string): { level: number; text: string } | null {
	const match = ATX_HEADING_PATTERN.exec(line);
	return match ? { level: match[1]!.length, text: (match[2] ?? "").trim() } : null;
}

describe("atxHeading", () => {
	it("reads headings as the pattern does: level, text, closing #s, indentation", () => {
		for (const line of [
			"# A",
			"  ### A ###",
			"#",
			"# ##",
			"#  ##",
			"# a # #",
			"# a#",
			"#a",
			"    # code",
			"####### seven",
			"#\tA\t#\t",
			"# a\u00a0##",
			"# a ##\u00a0",
			"# a\u2028b",
		]) {
			expect(atxHeading(line), JSON.stringify(line)).toEqual(byPattern(line));
		}
	});

	it("agrees with the pattern on any line (property)", () => {
		const chars = fc.constantFrom(" ", "\t", "#", "a", "\u00a0", "\u2028", "\r");
		fc.assert(
			fc.property(
				fc.array(chars, { maxLength: 14 }).map((parts) => parts.join("")),
				(line) => {
					expect(atxHeading(line)).toEqual(byPattern(line));
				},
			),
			{ numRuns: 20_000 },
		);
	});

	// The pattern backtracked quadratically over a run of spaces inside a heading: 200,000 spaces took about a minute.
	it("reads a heading with a very long run of spaces at once", () => {
		const line = `# a${" ".repeat(200_000)}b`;
		expect(parseMarkdown(`${line}\n`).headings).toEqual([{ level: 1, text: `a${" ".repeat(200_000)}b`, line: 0 }]);
	});
});
