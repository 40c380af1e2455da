import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitLines } from "../../../src/core/markdown/lines";
import { mergedText, mergeThreeWay, renderMerge, type MergeRegion } from "../../../src/core/merge/index";
import { mergeLines } from "../../../src/core/merge/line-merge";
import type { DraftRegion } from "../../../src/core/merge/types";

/** Few distinct lines, so texts share lines and merges really collide. */
const PLAIN = ["a\n", "b\n", "c\n", "d\n", "\n"];
/** The same with the constructs the markdown rules react to. */
const MARKDOWN = [
	"- [ ] a\n",
	"- [x] a\n",
	"- [ ] b\n",
	"  more\n",
	"```\n",
	"x = 1\n",
	"\n",
	"# h\n",
	"---\n",
	"t: 1\n",
	"tags: [a]\n",
	"\r\n",
	"🙂\n",
];

function lines(alphabet: string[], maxLength: number): fc.Arbitrary<string[]> {
	return fc.array(fc.constantFrom(...alphabet), { maxLength });
}

/** Joins lines, sometimes without the final newline or with a BOM. */
function finish(parts: string[], chop: boolean, bom: boolean): string {
	const text = parts.join("");
	return (bom ? "\ufeff" : "") + (chop ? text.replace(/\r?\n$/, "") : text);
}

/** A version derived from base by a few splices: the common case, with overlapping and adjacent edits. */
function edited(base: string[], alphabet: string[]): fc.Arbitrary<string[]> {
	const splice = fc.record({ at: fc.nat(), remove: fc.nat({ max: 2 }), insert: lines(alphabet, 2) });
	return fc.array(splice, { maxLength: 3 }).map((splices) => {
		const out = base.slice();
		for (const { at, remove, insert } of splices) out.splice(at % (out.length + 1), remove, ...insert);
		return out;
	});
}

function triple(alphabet: string[]): fc.Arbitrary<[string, string, string]> {
	const related = lines(alphabet, 10).chain((base) =>
		fc.tuple(fc.constant(base), edited(base, alphabet), edited(base, alphabet)),
	);
	const unrelated = fc.tuple(lines(alphabet, 8), lines(alphabet, 8), lines(alphabet, 8));
	return fc
		.tuple(
			fc.oneof({ arbitrary: related, weight: 4 }, { arbitrary: unrelated, weight: 1 }),
			fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
		)
		.map(([[b, m, t], flags]) => [
			finish(b, flags[0]!, flags[3]!),
			finish(m, flags[1]!, flags[4]!),
			finish(t, flags[2]!, flags[5]!),
		]);
}

const baseOf = (region: MergeRegion) =>
	region.kind === "conflict" ? region.base : region.origin === "base" ? region.text : (region.base ?? "");
const mineOf = (region: MergeRegion) =>
	region.kind === "conflict" ? region.mine : region.origin === "theirs" ? (region.base ?? "") : region.text;
const theirsOf = (region: MergeRegion) =>
	region.kind === "conflict" ? region.theirs : region.origin === "mine" ? (region.base ?? "") : region.text;

const lineSet = (text: string) => new Set(splitLines(text).map((line) => line.replace(/\r?\n$/, "")));

describe.each([
	["plain lines", PLAIN],
	["markdown lines", MARKDOWN],
])("merge properties over %s", (_name, alphabet) => {
	const texts = triple(alphabet);
	const runs = { numRuns: 400 };

	it("merge(b, x, b) = x, cleanly", () => {
		fc.assert(
			fc.property(texts, ([b, x]) => {
				expect(mergedText(mergeThreeWay(b, x, b))).toBe(x);
			}),
			runs,
		);
	});

	it("merge(b, b, y) = y, cleanly", () => {
		fc.assert(
			fc.property(texts, ([b, , y]) => {
				expect(mergedText(mergeThreeWay(b, b, y))).toBe(y);
			}),
			runs,
		);
	});

	it("merge(b, x, x) = x, cleanly", () => {
		fc.assert(
			fc.property(texts, ([b, x]) => {
				expect(mergedText(mergeThreeWay(b, x, x))).toBe(x);
			}),
			runs,
		);
	});

	it("renders a clean result without markers, and a conflicting one with every line of both sides", () => {
		fc.assert(
			fc.property(texts, fc.boolean(), ([b, m, t], diff3) => {
				const result = mergeThreeWay(b, m, t);
				const rendered = renderMerge(result, { diff3 });
				expect(result.clean).toBe(result.conflicts === 0);
				if (result.clean) {
					expect(rendered).toBe(mergedText(result));
					expect(rendered).not.toMatch(/^(<<<<<<<|=======|>>>>>>>|\|\|\|\|\|\|\|)/m);
					return;
				}
				const shown = lineSet(rendered);
				for (const region of result.regions) {
					if (region.kind !== "conflict") continue;
					expect(region.mine).not.toBe(region.theirs);
					for (const line of [...lineSet(region.mine), ...lineSet(region.theirs)]) expect(shown.has(line)).toBe(true);
				}
			}),
			runs,
		);
	});

	it("regions account for the whole base", () => {
		fc.assert(
			fc.property(texts, ([b, m, t]) => {
				expect(mergeThreeWay(b, m, t).regions.map(baseOf).join("")).toBe(b);
			}),
			runs,
		);
	});

	it("gives the same answer with the sides swapped", () => {
		fc.assert(
			fc.property(texts, ([b, m, t]) => {
				const forward = mergeThreeWay(b, m, t);
				const backward = mergeThreeWay(b, t, m);
				expect(backward.clean).toBe(forward.clean);
				if (forward.clean) expect(mergedText(backward)).toBe(mergedText(forward));
			}),
			runs,
		);
	});
});

describe("line merge bookkeeping (no frontmatter, so no combined regions)", () => {
	it("regions account for the whole of mine and of theirs", () => {
		fc.assert(
			fc.property(triple(PLAIN), ([b, m, t]) => {
				const { regions } = mergeThreeWay(b, m, t);
				expect(regions.map(mineOf).join("")).toBe(m);
				expect(regions.map(theirsOf).join("")).toBe(t);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("markdown rules only move the line between clean and conflicting", () => {
	const cleanText = (regions: DraftRegion[]) =>
		regions.every((region) => region.kind === "stable")
			? regions.map((region) => (region.kind === "stable" ? region.text : "")).join("")
			: null;

	it("never change the text of a merge both git's rules and ours find clean", () => {
		fc.assert(
			fc.property(triple(MARKDOWN), ([b, m, t]) => {
				const [bl, ml, tl] = [splitLines(b), splitLines(m), splitLines(t)];
				const git = cleanText(mergeLines(bl, ml, tl, { markdown: false }));
				const ours = cleanText(mergeLines(bl, ml, tl, { markdown: true }));
				if (git !== null && ours !== null) expect(ours).toBe(git);
			}),
			{ numRuns: 1000 },
		);
	});
});
