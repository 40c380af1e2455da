import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headOfText, pageOfLines } from "../../../src/core/diff/page";

const bytes = (text: string) => Buffer.byteLength(text);

describe("pageOfLines", () => {
	it("holds whole lines up to the limit and says where the next page starts", () => {
		const lines = ["aaaa\n", "bbbb\n", "cccc\n"];
		expect(pageOfLines(lines, 0, 10)).toEqual({ text: "aaaa\nbbbb\n", truncated: true, nextOffset: 2, lineCut: false });
		expect(pageOfLines(lines, 2, 10)).toEqual({ text: "cccc\n", truncated: false, nextOffset: null, lineCut: false });
	});

	it("ends a page at a hunk header in its second half, so hunks stay whole", () => {
		const lines = ["--- a\n", "+++ b\n", "@@ -1 +1 @@\n", "-x\n", "+y\n", "@@ -9 +9 @@\n", "-p\n", "+q\n"];
		// 46 bytes would end the page after "-p", inside the second hunk: it ends before that hunk instead.
		const page = pageOfLines(lines, 0, 46);
		expect(page.text.endsWith("+y\n")).toBe(true);
		expect(page.nextOffset).toBe(5);
	});

	it("cuts a single line longer than a page, marks it, and goes on with the next line", () => {
		const long = "+" + "x".repeat(10_000) + "\n";
		const page = pageOfLines(["--- a\n", long, "+short\n"], 1, 1_000);
		expect(bytes(page.text)).toBeLessThanOrEqual(1_000);
		expect(page.lineCut).toBe(true);
		expect(page.text).toMatch(/\n\\ Line cut here at the answer size limit: \d+ more bytes/);
		expect(page.nextOffset).toBe(2);
	});

	it("never passes the limit, and pages rebuild the text when no line is longer than a page (property)", () => {
		const line = fc.string({ unit: "grapheme", maxLength: 40 }).map((text) => text.replace(/\n/g, "") + "\n");
		fc.assert(
			fc.property(fc.array(line, { maxLength: 80 }), fc.integer({ min: 200, max: 600 }), (lines, limit) => {
				let text = "";
				let offset: number | null = 0;
				while (offset !== null) {
					const page = pageOfLines(lines, offset, limit);
					expect(bytes(page.text)).toBeLessThanOrEqual(limit);
					expect(page.lineCut).toBe(false);
					text += page.text;
					offset = page.nextOffset;
				}
				expect(text).toBe(lines.join(""));
			}),
			{ numRuns: 200 },
		);
	});
});

describe("headOfText", () => {
	it("keeps a text within the limit whole, and cuts a longer one after a whole line", () => {
		expect(headOfText("a\nb\n", 10)).toEqual({ text: "a\nb\n", truncated: false, nextOffset: null, lineCut: false });
		expect(headOfText("aaaa\nbbbb\ncccc\n", 11)).toEqual({
			text: "aaaa\nbbbb\n",
			truncated: true,
			nextOffset: null,
			lineCut: false,
		});
	});

	it("cuts and marks a first line longer than the limit", () => {
		const head = headOfText("y".repeat(50_000) + "\nrest\n", 2_000);
		expect(bytes(head.text)).toBeLessThanOrEqual(2_000);
		expect(head).toMatchObject({ truncated: true, lineCut: true });
	});
});
