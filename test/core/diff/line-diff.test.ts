import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines, type LineOp } from "../../../src/core/diff/line-diff";

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

const numbered = (from: number, to: number, tag = "line") => Array.from({ length: to - from }, (_, i) => `${tag} ${from + i}\n`);

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

	it("finds a minimal diff (a longest common subsequence) when given no time limit (property)", () => {
		const line = fc.constantFrom("a\n", "b\n", "c\n", "\n", "d");
		fc.assert(
			fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (before, after) => {
				const ops = diffLines(before, after, { timeoutSeconds: 0 });
				expectWellFormed(ops, before, after);
				expect(equalCount(ops)).toBe(lcsLength(before, after));
			}),
			{ numRuns: 300 },
		);
	});

	it("handles more than 70,000 distinct lines per side (mostly shared) and reconstructs exactly", () => {
		// 63,000 shared lines (their codes run past the surrogate block) plus 7,500 lines unique to each side.
		const shared = numbered(0, 63_000);
		const onlyBefore = numbered(0, 7_500, "only before");
		const onlyAfter = numbered(0, 7_500, "only after");
		const before = [...onlyBefore.slice(0, 5_000), ...shared.slice(0, 40_000), ...onlyBefore.slice(5_000), ...shared.slice(40_000)];
		const after = [...shared.slice(0, 20_000), ...onlyAfter.slice(0, 7_000), ...shared.slice(20_000, 62_000), ...onlyAfter.slice(7_000), ...shared.slice(62_000)];
		// A few edits among lines whose codes lie above the surrogate block (the 55,296th shared line onwards).
		after.splice(after.length - 300, 3);
		after.splice(after.length - 50, 0, "inserted near the end\n");
		expect(new Set(before).size).toBeGreaterThan(70_000);
		expect(new Set(after).size).toBeGreaterThan(70_000);
		const ops = diffLines(before, after, { timeoutSeconds: 10 });
		expectWellFormed(ops, before, after);
		// Not the fallback: the shared lines are matched rather than replaced wholesale.
		expect(equalCount(ops)).toBe(63_000 - 3);
	});

	it("settles for a valid, reconstructing diff when the time limit runs out", () => {
		const shared = numbered(0, 20_000);
		const before: string[] = [];
		const after: string[] = [];
		shared.forEach((line, i) => {
			before.push(line);
			after.push(line);
			if (i % 3 === 1) before.push(`only before ${i}\n`);
			if (i % 3 === 2) after.push(`only after ${i}\n`);
		});
		const ops = diffLines(before, after, { timeoutSeconds: 0.01 });
		expectWellFormed(ops, before, after);
	});

	// 0xffff - 0x800 - 1 usable codes, two of which are the "only on one side" codes.
	const SHARED_LIMIT = 0xffff - 0x800 - 1 - 2;
	/** `count` distinct lines, all shared, with a new line inserted early and late on the after side. */
	function sharedWithTwoInsertions(count: number): { before: string[]; after: string[] } {
		const before = numbered(0, count);
		const after = [...before.slice(0, 10), "inserted early\n", ...before.slice(10, count - 10), "inserted late\n", ...before.slice(count - 10)];
		return { before, after };
	}

	it("still matches precisely with exactly as many shared lines as there are codes", () => {
		const { before, after } = sharedWithTwoInsertions(SHARED_LIMIT);
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
		expect(ops.map((op) => op.kind)).toEqual(["equal", "insert", "equal", "insert", "equal"]);
		expect(equalCount(ops)).toBe(SHARED_LIMIT);
	});

	it("falls back as soon as the shared lines outnumber the codes by one", () => {
		const { before, after } = sharedWithTwoInsertions(SHARED_LIMIT + 1);
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
		expect(ops.map((op) => op.kind)).toEqual(["equal", "delete", "insert", "equal"]);
		expect(ops[0]!.lines).toHaveLength(10);
		expect(ops[1]!.lines).toHaveLength(SHARED_LIMIT + 1 - 20);
		expect(ops[2]!.lines).toHaveLength(SHARED_LIMIT + 1 - 20 + 2);
		expect(ops[3]!.lines).toHaveLength(10);
	});

	it("falls back to one replaced middle block, with exact common prefix and suffix, past 65k shared lines", () => {
		const count = 70_000;
		const before = numbered(0, count);
		const after = [...before];
		after[100] = "changed early\n";
		after[count - 100] = "changed late\n";
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
		expect(ops.map((op) => op.kind)).toEqual(["equal", "delete", "insert", "equal"]);
		expect(ops[0]!.lines).toHaveLength(100);
		expect(ops[3]!.lines).toHaveLength(99);
		expect(ops[1]!.lines).toEqual(before.slice(100, count - 99));
		expect(ops[2]!.lines).toEqual(after.slice(100, count - 99));
	});

	it("falls back correctly when one side is a prefix of the other past 65k shared lines", () => {
		const before = numbered(0, 66_000);
		const after = [...before, "tail\n"];
		expect(diffLines(before, after)).toEqual([
			{ kind: "equal", lines: before },
			{ kind: "insert", lines: ["tail\n"] },
		]);
		const shorter = before.slice(1);
		expect(diffLines(before, shorter)).toEqual([
			{ kind: "delete", lines: [before[0]] },
			{ kind: "equal", lines: shorter },
		]);
	});

	it("falls back correctly when a duplicated last line could be counted in both the prefix and the suffix", () => {
		const body = numbered(0, 66_000);
		const before = [...body, body[body.length - 1]!];
		expect(diffLines(before, body)).toEqual([
			{ kind: "equal", lines: body },
			{ kind: "delete", lines: [body[body.length - 1]] },
		]);
		expect(diffLines(body, before)).toEqual([
			{ kind: "equal", lines: body },
			{ kind: "insert", lines: [body[body.length - 1]] },
		]);
	});

	it("falls back correctly when the sides share a repeated line in both prefix and suffix", () => {
		const body = numbered(0, 66_000);
		const before = ["x\n", ...body, "x\n"];
		const after = ["x\n", ...body.slice(0, 30_000), "new\n", ...body.slice(30_000), "x\n"];
		const ops = diffLines(before, after);
		expectWellFormed(ops, before, after);
	});
});
