import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	DUPLICATE_MARKER,
	OccurrenceCounter,
	occurrenceKey,
	parseOccurrence,
} from "../../../src/core/markdown/occurrences";

describe("occurrence keys", () => {
	it("leave the first occurrence plain and suffix later ones as Local REST API 5.1 suffixes the second", () => {
		expect(occurrenceKey("Notes", 1)).toBe("Notes");
		expect(occurrenceKey("Notes", 2)).toBe("Notes\u{FC750}\u{F6440}");
		expect(occurrenceKey("Notes", 3)).toBe(`Notes${DUPLICATE_MARKER}3`);
	});

	it("read back what they wrote, for any text and occurrence", () => {
		fc.assert(
			fc.property(fc.string(), fc.integer({ min: 1, max: 1_000_000 }), (text, occurrence) => {
				fc.pre(!text.includes(DUPLICATE_MARKER));
				expect(parseOccurrence(occurrenceKey(text, occurrence))).toEqual({ text, occurrence });
			}),
		);
	});

	it("take a suffix they would not write (a leading zero, 1 or 2 spelled out) as part of the text", () => {
		for (const odd of ["01", "1", "2", "x", "3 "])
			expect(parseOccurrence(`A${DUPLICATE_MARKER}${odd}`)).toEqual({
				text: `A${DUPLICATE_MARKER}${odd}`,
				occurrence: 1,
			});
	});

	it("count each name on its own", () => {
		const counter = new OccurrenceCounter();
		expect(["a", "b", "a", "a", "b"].map((text) => counter.next(text))).toEqual([
			"a",
			"b",
			occurrenceKey("a", 2),
			occurrenceKey("a", 3),
			occurrenceKey("b", 2),
		]);
	});
});
