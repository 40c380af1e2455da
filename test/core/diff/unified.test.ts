import { spawnSync } from "child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { splitLines } from "../../../src/core/markdown/lines";
import { unifiedDiff } from "../../../src/core/diff/unified";

const NO_NEWLINE = "\\ No newline at end of file\n";

/** Drops the `---` / `+++` header lines. */
function body(diff: string): string {
	const lines = splitLines(diff);
	return lines.slice(2).join("");
}

/**
 * A strict applier for the unified diffs we produce: every context and removed line must match `before` exactly,
 * hunk headers must agree with the hunk bodies and with where the hunk lands.
 */
function applyUnified(before: string, diff: string): string {
	if (diff === "") return before;
	const lines = splitLines(diff);
	if (!lines[0]?.startsWith("--- ") || !lines[1]?.startsWith("+++ ")) throw new Error("missing file header");
	const source = splitLines(before);
	const out: string[] = [];
	let consumed = 0;
	let k = 2;
	while (k < lines.length) {
		const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n$/.exec(lines[k]!);
		if (!header) throw new Error(`bad hunk header: ${JSON.stringify(lines[k])}`);
		k++;
		const oldCount = header[2] === undefined ? 1 : Number(header[2]);
		const newCount = header[4] === undefined ? 1 : Number(header[4]);
		const oldStart = oldCount === 0 ? Number(header[1]) : Number(header[1]) - 1;
		const newStart = newCount === 0 ? Number(header[3]) : Number(header[3]) - 1;
		if (oldStart < consumed) throw new Error("hunks overlap or go backwards");
		while (consumed < oldStart) out.push(source[consumed++]!);
		if (out.length !== newStart) throw new Error(`hunk lands at new line ${out.length}, header says ${newStart}`);
		let seenOld = 0;
		let seenNew = 0;
		while (k < lines.length && !lines[k]!.startsWith("@@")) {
			const raw = lines[k++]!;
			let text = raw.slice(1);
			if (lines[k] === NO_NEWLINE) {
				if (!text.endsWith("\n")) throw new Error("marker after a line without its newline");
				text = text.slice(0, -1);
				k++;
			}
			const tag = raw[0];
			if (tag === " " || tag === "-") {
				if (source[consumed] !== text) throw new Error(`context mismatch at old line ${consumed + 1}`);
				consumed++;
				seenOld++;
			}
			if (tag === " " || tag === "+") {
				out.push(text);
				seenNew++;
			}
			if (tag !== " " && tag !== "-" && tag !== "+") throw new Error(`bad hunk line: ${JSON.stringify(raw)}`);
		}
		if (seenOld !== oldCount || seenNew !== newCount) throw new Error("hunk counts disagree with header");
	}
	while (consumed < source.length) out.push(source[consumed++]!);
	return out.join("");
}

const scratch = mkdtempSync(join(tmpdir(), "unified-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let fileCounter = 0;

function gnuDiff(before: string, after: string, context = 3): string {
	const id = fileCounter++;
	const a = join(scratch, `a${id}`);
	const b = join(scratch, `b${id}`);
	writeFileSync(a, before);
	writeFileSync(b, after);
	const result = spawnSync("/usr/bin/diff", [`-U${context}`, a, b], { encoding: "utf8" });
	if (result.status !== 0 && result.status !== 1) throw new Error(`diff failed: ${result.stderr}`);
	return result.stdout;
}

function gnuPatch(before: string, diff: string): string {
	const id = fileCounter++;
	const file = join(scratch, `p${id}`);
	const patchFile = join(scratch, `p${id}.diff`);
	writeFileSync(file, before);
	writeFileSync(patchFile, diff);
	const result = spawnSync(
		"/usr/bin/patch",
		["--quiet", "--force", "--no-backup-if-mismatch", "-o", `${file}.out`, file, patchFile],
		{ encoding: "utf8" },
	);
	if (result.status !== 0) throw new Error(`patch failed: ${result.stdout}${result.stderr}`);
	return readFileSync(`${file}.out`, "utf8");
}

/**
 * Edits of a text whose lines are all distinct, keeping shared lines in order: the longest common subsequence is
 * then unique, so any correct minimal diff (ours and GNU diff's) must agree line for line.
 */
const uniqueLineEdit = fc
	.record({
		length: fc.integer({ min: 0, max: 40 }),
		actions: fc.array(fc.constantFrom("keep", "keep", "keep", "keep", "delete", "replace", "insert"), {
			minLength: 41,
			maxLength: 41,
		}),
		tail: fc.array(fc.constantFrom("append", "none"), { minLength: 1, maxLength: 3 }),
		beforeNoEol: fc.boolean(),
		afterNoEol: fc.boolean(),
	})
	.map(({ length, actions, tail, beforeNoEol, afterNoEol }) => {
		const before: string[] = [];
		const after: string[] = [];
		let fresh = 0;
		for (let i = 0; i < length; i++) {
			const line = `line ${i}\n`;
			before.push(line);
			const action = actions[i]!;
			if (action === "keep") after.push(line);
			else if (action === "replace") after.push(`new ${fresh++}\n`);
			else if (action === "insert") after.push(`new ${fresh++}\n`, line);
		}
		for (const t of tail) if (t === "append") after.push(`new ${fresh++}\n`);
		const strip = (text: string, yes: boolean) => (yes && text.endsWith("\n") ? text.slice(0, -1) : text);
		return { before: strip(before.join(""), beforeNoEol), after: strip(after.join(""), afterNoEol) };
	});

describe("unifiedDiff", () => {
	it("returns the empty string for equal texts", () => {
		expect(unifiedDiff("", "")).toBe("");
		expect(unifiedDiff("a\nb\n", "a\nb\n")).toBe("");
		expect(unifiedDiff("no newline", "no newline")).toBe("");
	});

	it("writes the --- / +++ header with default and custom labels", () => {
		expect(unifiedDiff("a\n", "b\n")).toBe("--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n");
		expect(
			unifiedDiff("a\n", "b\n", { fromLabel: "notes/Plan.md@abc", toLabel: "notes/Plan.md@def" }).startsWith(
				"--- notes/Plan.md@abc\n+++ notes/Plan.md@def\n",
			),
		).toBe(true);
	});

	it("shows three lines of context by default and merges nearby changes into one hunk", () => {
		const before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
		const after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n";
		expect(unifiedDiff(before, after)).toBe("--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
	});

	it("splits changes more than twice the context apart into separate hunks", () => {
		const lines = Array.from({ length: 20 }, (_, i) => `${i + 1}\n`);
		const before = lines.join("");
		const after = lines.map((l, i) => (i === 1 || i === 17 ? `x${l}` : l)).join("");
		const diff = unifiedDiff(before, after);
		expect(diff.match(/^@@/gm)).toHaveLength(2);
		expect(diff).toContain("@@ -1,5 +1,5 @@\n");
		expect(diff).toContain("@@ -15,6 +15,6 @@\n");
	});

	it("uses 0,0 for an empty old side and names the line before an empty range", () => {
		expect(unifiedDiff("", "a\nb\n")).toBe("--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n");
		expect(unifiedDiff("a\nb\n", "")).toBe("--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n");
		expect(unifiedDiff("a\nb\nc\n", "a\nb\nX\nc\n", { context: 0 })).toBe("--- a\n+++ b\n@@ -2,0 +3 @@\n+X\n");
	});

	it("marks a missing final newline with \\ No newline at end of file", () => {
		expect(unifiedDiff("a\nb", "a\nc")).toBe(`--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n${NO_NEWLINE}+c\n${NO_NEWLINE}`);
		expect(unifiedDiff("a\nb", "a\nb\n")).toBe(`--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n${NO_NEWLINE}+b\n`);
		expect(unifiedDiff("a\n", "a\nb")).toBe(`--- a\n+++ b\n@@ -1 +1,2 @@\n a\n+b\n${NO_NEWLINE}`);
	});

	it("marks a missing final newline on a context line too", () => {
		expect(unifiedDiff("a\nb\nc", "A\nb\nc")).toBe(`--- a\n+++ b\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n${NO_NEWLINE}`);
	});

	it("keeps CRLF line endings inside the diff lines", () => {
		expect(unifiedDiff("a\r\nb\r\n", "a\r\nc\r\n")).toBe("--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n");
	});

	it("honours a custom context size", () => {
		const before = "1\n2\n3\n4\n5\n";
		const after = "1\n2\nthree\n4\n5\n";
		expect(unifiedDiff(before, after, { context: 0 })).toBe("--- a\n+++ b\n@@ -3 +3 @@\n-3\n+three\n");
		expect(unifiedDiff(before, after, { context: 1 })).toBe("--- a\n+++ b\n@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n");
	});

	it("matches GNU diff -u line for line (hand-picked cases)", () => {
		const cases: [string, string][] = [
			["a\n", "b\n"],
			["", "x\n"],
			["x\n", ""],
			["a\nb", "a\nc"],
			["a\nb", "a\nb\n"],
			["a\nb\n", "a\nb"],
			["one\ntwo\nthree\n", "zero\none\ntwo\nthree\nfour\n"],
			[
				Array.from({ length: 30 }, (_, i) => `l${i}\n`).join(""),
				Array.from({ length: 30 }, (_, i) => (i % 9 === 4 ? `changed ${i}\n` : `l${i}\n`)).join(""),
			],
			["# Title\n\nIntro.\n\n## A\n\ntext\n", "# Title\n\nIntro, edited.\n\n## A\n\ntext\nmore\n"],
			["a\r\nb\r\n", "a\r\nB\r\n"],
		];
		for (const [before, after] of cases) {
			for (const context of [0, 1, 3, 5]) {
				expect(body(unifiedDiff(before, after, { context })), JSON.stringify({ before, after, context })).toBe(
					body(gnuDiff(before, after, context)),
				);
			}
		}
	});

	it("matches GNU diff -u line for line on generated edits with an unambiguous best diff", () => {
		fc.assert(
			fc.property(uniqueLineEdit, fc.constantFrom(0, 1, 2, 3), ({ before, after }, context) => {
				expect(body(unifiedDiff(before, after, { context }))).toBe(body(gnuDiff(before, after, context)));
			}),
			{ numRuns: 60 },
		);
	});

	it("applying the hunks to before gives after (property, with our own strict applier)", () => {
		const line = fc.oneof(
			fc.constantFrom("a\n", "b\n", "\n", "}\n", "a\r\n", "x"),
			fc.string({ maxLength: 5 }).map((s) => s + "\n"),
		);
		const text = fc.oneof(
			fc.array(line, { maxLength: 40 }).map((l) => l.join("")),
			fc.string({ unit: "binary", maxLength: 60 }),
		);
		fc.assert(
			fc.property(text, text, fc.integer({ min: 0, max: 5 }), (before, after, context) => {
				const diff = unifiedDiff(before, after, { context });
				expect(diff === "").toBe(before === after);
				expect(applyUnified(before, diff)).toBe(after);
			}),
			{ numRuns: 1000 },
		);
	});

	it("applying the hunks with GNU patch gives after", () => {
		fc.assert(
			fc.property(uniqueLineEdit, ({ before, after }) => {
				const diff = unifiedDiff(before, after);
				if (diff === "") return;
				expect(gnuPatch(before, diff)).toBe(after);
			}),
			{ numRuns: 30 },
		);
		const repeated = "a\nb\na\nb\n\n}\n}\na\n";
		const edited = "a\na\nb\n\n}\nb\n}\nc";
		expect(gnuPatch(repeated, unifiedDiff(repeated, edited))).toBe(edited);
	});

	it("the strict applier rejects a diff whose context does not match (sanity check of the checker)", () => {
		const diff = unifiedDiff("a\nb\nc\n", "a\nB\nc\n");
		expect(() => applyUnified("a\nX\nc\n", diff)).toThrow();
		expect(() => applyUnified("a\nb\nc\n", diff.replace("@@ -1,3 +1,3 @@", "@@ -1,3 +1,4 @@"))).toThrow();
	});
});
