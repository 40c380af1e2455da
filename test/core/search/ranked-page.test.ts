import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RankedPage, type Page } from "../../../src/core/search/ranked-page";

const byNumber = (a: number, b: number) => a - b;

function pages(values: number[], limit: number, maxBytes: number, size: (value: number) => number): number[][] {
	const out: number[][] = [];
	let after: number | null = null;
	for (let guard = 0; guard < 1000; guard++) {
		const collector: RankedPage<number, number> = new RankedPage<number, number>({ after, limit, maxBytes }, byNumber);
		for (const value of values) collector.offer(value, value, size(value));
		const page: Page<number, number> = collector.page();
		expect(page.total).toBe(values.length);
		out.push(page.items);
		if (page.next === null) return out;
		after = page.next;
	}
	throw new Error("too many pages");
}

describe("RankedPage", () => {
	it("pages through every hit once, in rank order, within the limit and the byte bound (property)", () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 60 }),
				fc.integer({ min: 1, max: 10 }),
				fc.integer({ min: 1, max: 50 }),
				(values, limit, maxBytes) => {
					const size = (value: number) => 1 + (value % 7);
					const served = pages(values, limit, maxBytes, size);
					expect(served.flat()).toEqual([...values].sort(byNumber));
					for (const page of served) {
						expect(page.length).toBeLessThanOrEqual(limit);
						// Over the bound only when one hit alone is (it is still served, alone).
						if (page.length > 1)
							expect(page.reduce((sum, value) => sum + size(value), 0)).toBeLessThanOrEqual(maxBytes);
					}
				},
			),
		);
	});

	it("says there is no next page when the page holds the last hit", () => {
		const collector = new RankedPage<number, number>({ after: null, limit: 5, maxBytes: 100 }, byNumber);
		for (const value of [3, 1, 2]) collector.offer(value, value, 1);
		expect(collector.page()).toEqual({ items: [1, 2, 3], next: null, total: 3 });
	});
});
