import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines, diffLinesSteps, type LineOp } from "../../../src/core/diff/line-diff";

function sides(ops: LineOp[]): { before: string[]; after: string[] } {
	const before: string[] = [];
	const after: string[] = [];
	for (const op of ops) {
		if (op.kind !== "insert") before.push(...op.lines);
		if (op.kind !== "delete") after.push(...op.lines);
	}
	return { before, after };
}

function equalCount(ops: LineOp[]): number {
	return ops.filter((op) => op.kind === "equal").reduce((sum, op) => sum + op.lines.length, 0);
}

/** Textbook LCS length, for checking minimality on small inputs. */
function lcsLength(a: readonly string[], b: readonly string[]): number {
	let previous = new Array<number>(b.length + 1).fill(0);
	for (let i = 1; i <= a.length; i++) {
		const row = new Array<number>(b.length + 1).fill(0);
		for (let j = 1; j <= b.length; j++) {
			row[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
		}
		previous = row;
	}
	return previous[b.length]!;
}

function expectWellFormed(ops: LineOp[], before: readonly string[], after: readonly string[]): void {
	const rebuilt = sides(ops);
	// toEqual on 70k-element arrays is slow to diff on failure; compare joined first, then exactly.
	expect(rebuilt.before.length).toBe(before.length);
	expect(rebuilt.after.length).toBe(after.length);
	expect(rebuilt.before.every((line, i) => line === before[i])).toBe(true);
	expect(rebuilt.after.every((line, i) => line === after[i])).toBe(true);
	for (const op of ops) expect(op.lines.length).toBeGreaterThan(0);
	for (let i = 1; i < ops.length; i++) expect(ops[i]!.kind).not.toBe(ops[i - 1]!.kind);
}

const numbered = (from: number, to: number, tag = "line") =>
	Array.from({ length: to - from }, (_, i) => `${tag} ${from + i}\n`);

describe("diffLines", () => {
	it("returns no ops for two empty sides", () => {
		expect(diffLines([], [])).toEqual([]);
	});

	it("returns a single equal op for identical sides", () => {
		expect(diffLines(["a\n", "b\n"], ["a\n", "b\n"])).toEqual([{ kind: "equal", lines: ["a\n", "b\n"] }]);
	});

	it("reports pure insertions and pure deletions", () => {
		expect(diffLines([], ["a\n"])).toEqual([{ kind: "insert", lines: ["a\n"] }]);
		expect(diffLines(["a\n"], [])).toEqual([{ kind: "delete", lines: ["a\n"] }]);
		expect(diffLines(["a\n", "c\n"], ["a\n", "b\n", "c\n"])).toEqual([
			{ kind: "equal", lines: ["a\n"] },
			{ kind: "insert", lines: ["b\n"] },
			{ kind: "equal", lines: ["c\n"] },
		]);
	});

	it("reports a changed line as a delete followed by an insert", () => {
		expect(diffLines(["a\n", "b\n", "c\n"], ["a\n", "B\n", "c\n"])).toEqual([
			{ kind: "equal", lines: ["a\n"] },
			{ kind: "delete", lines: ["b\n"] },
			{ kind: "insert", lines: ["B\n"] },
			{ kind: "equal", lines: ["c\n"] },
		]);
	});

	it("treats lines differing only in terminator as different", () => {
		expect(diffLines(["a\n"], ["a\r\n"])).toEqual([
			{ kind: "delete", lines: ["a\n"] },
			{ kind: "insert", lines: ["a\r\n"] },
		]);
		expect(diffLines(["a"], ["a\n"])).toEqual([
			{ kind: "delete", lines: ["a"] },
			{ kind: "insert", lines: ["a\n"] },
		]);
	});

	it("keeps lines that occur on one side only apart, even when several such lines are adjacent", () => {
		const before = ["x1\n", "x2\n", "same\n", "x3\n"];
		const after = ["y1\n", "same\n", "y2\n", "y3\n"];
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
		expect(equalCount(ops)).toBe(1);
	});

	it("does not confuse lines that contain NUL or surrogate-range characters with line codes", () => {
		const before = ["\u0000\n", "\ud83d\ude00\n", "\ud800\n", "\uffff\n", "plain\n"];
		const after = ["\ud800\n", "\u0000\n", "plain\n", "\ud83d\ude00\n"];
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
		expect(equalCount(ops)).toBe(lcsLength(before, after));
	});

	it("ops reconstruct both sides exactly (property)", () => {
		const line = fc.oneof(
			fc.constantFrom("a\n", "b\n", "\n", "}\n", "  return x;\n", "a", "a\r\n", "😀\n"),
			fc.string({ maxLength: 6 }).map((s) => s + "\n"),
		);
		fc.assert(
			fc.property(fc.array(line, { maxLength: 60 }), fc.array(line, { maxLength: 60 }), (before, after) => {
				expectWellFormed(diffLines(before, after), before, after);
			}),
			{ numRuns: 500 },
		);
	});

	it("ops reconstruct both sides when the sides are small edits of each other with many repeated lines (property)", () => {
		const line = fc.constantFrom("a\n", "b\n", "\n", "}\n");
		const edit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 4 }), insert: fc.array(line, { maxLength: 4 }) });
		fc.assert(
			fc.property(fc.array(line, { maxLength: 200 }), fc.array(edit, { maxLength: 6 }), (before, edits) => {
				const after = [...before];
				for (const e of edits) after.splice(after.length === 0 ? 0 : e.at % after.length, e.remove, ...e.insert);
				expectWellFormed(diffLines(before, after), before, after);
			}),
			{ numRuns: 300 },
		);
	});

	it("finds a minimal diff (a longest common subsequence) on small inputs (property)", () => {
		const line = fc.constantFrom("a\n", "b\n", "c\n", "\n", "d");
		fc.assert(
			fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (before, after) => {
				const ops = diffLines(before, after);
				expectWellFormed(ops, before, after);
				expect(equalCount(ops)).toBe(lcsLength(before, after));
			}),
			{ numRuns: 500 },
		);
	});

	it("stays minimal for a few hundred scattered edits in a long note (below the cost bound)", () => {
		const before = numbered(0, 5_000);
		const after = [...before];
		for (let i = 10; i < after.length; i += 40) after[i] = `edited ${i}\n`;
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
		expect(equalCount(ops)).toBe(5_000 - 125);
	});

	it("matches every shared line past 65,536 distinct lines (no distinct-line limit, no replace-everything fallback)", () => {
		const count = 70_000;
		const before = numbered(0, count);
		const after = [...before];
		after[100] = "changed early\n";
		after[count - 100] = "changed late\n";
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
		expect(ops.map((op) => op.kind)).toEqual(["equal", "delete", "insert", "equal", "delete", "insert", "equal"]);
		expect(equalCount(ops)).toBe(count - 2);
	});

	it("matches 70,000 distinct lines shared in a different order on each side, and reconstructs exactly", () => {
		// 63,000 shared lines plus 7,500 lines unique to each side, the shared lines moved about in blocks.
		const shared = numbered(0, 63_000);
		const onlyBefore = numbered(0, 7_500, "only before");
		const onlyAfter = numbered(0, 7_500, "only after");
		const before = [
			...onlyBefore.slice(0, 5_000),
			...shared.slice(0, 40_000),
			...onlyBefore.slice(5_000),
			...shared.slice(40_000),
		];
		const after = [
			...shared.slice(0, 20_000),
			...onlyAfter.slice(0, 7_000),
			...shared.slice(20_000, 62_000),
			...onlyAfter.slice(7_000),
			...shared.slice(62_000),
		];
		after.splice(after.length - 300, 3);
		after.splice(after.length - 50, 0, "inserted near the end\n");
		expect(new Set(before).size).toBeGreaterThan(70_000);
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
		expect(equalCount(ops)).toBe(63_000 - 3);
	});

	it("gives the same diff every time, for inputs far past the cost bound", () => {
		// Every shared line moved: the search reaches its cost bound, and its answer must not depend on anything but
		// the inputs (no clock, no machine load).
		const before = numbered(0, 20_000);
		const after = Array.from({ length: 20_000 }, (_, i) => before[(i * 7919) % 20_000]!);
		const first = diffLines(before, after);
		expectWellFormed(first, before, after);
		expect(diffLines(before, after)).toEqual(first);
	});

	it("is bounded on adversarial inputs: a reversed 40,000-line note takes a bounded number of steps", () => {
		// The plain O(ND) search would need about N·D = 1.6e9 comparisons here; the cost bound keeps it near N·√N.
		const before = numbered(0, 40_000);
		const after = [...before].reverse();
		const steps = diffLinesSteps(before, after);
		let yields = 0;
		let result = steps.next();
		while (!result.done) {
			yields++;
			result = steps.next();
		}
		expectWellFormed(result.value, before, after);
		// Each yield marks about 100,000 comparisons.
		expect(yields).toBeLessThan(2_000);
	});

	it("yields between bounded pieces of work, so a huge diff can run in slices", () => {
		const before = numbered(0, 30_000);
		const after = Array.from({ length: 30_000 }, (_, i) => before[(i * 101) % 30_000]!);
		let yields = 0;
		const steps = diffLinesSteps(before, after);
		while (!steps.next().done) yields++;
		expect(yields).toBeGreaterThan(10);
	});
});
