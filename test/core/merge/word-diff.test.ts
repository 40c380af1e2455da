import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokenize, wordDiff, type WordOp } from "../../../src/core/merge/word-diff";

const before = (ops: WordOp[]) =>
	ops
		.filter((op) => op.kind !== "insert")
		.map((op) => op.text)
		.join("");
const after = (ops: WordOp[]) =>
	ops
		.filter((op) => op.kind !== "delete")
		.map((op) => op.text)
		.join("");

/** True when the text starts with a low surrogate or ends with a high one, i.e. a pair was cut. */
function cutsPair(text: string): boolean {
	const first = text.charCodeAt(0);
	const last = text.charCodeAt(text.length - 1);
	return (first >= 0xdc00 && first <= 0xdfff) || (last >= 0xd800 && last <= 0xdbff);
}

describe("wordDiff", () => {
	it("highlights whole words", () => {
		expect(wordDiff("the quick fox", "the slow fox")).toEqual([
			{ kind: "equal", text: "the " },
			{ kind: "delete", text: "quick" },
			{ kind: "insert", text: "slow" },
			{ kind: "equal", text: " fox" },
		]);
	});

	it("handles equal and empty inputs", () => {
		expect(wordDiff("", "")).toEqual([]);
		expect(wordDiff("same", "same")).toEqual([{ kind: "equal", text: "same" }]);
		expect(wordDiff("", "new")).toEqual([{ kind: "insert", text: "new" }]);
	});

	it("never cuts an emoji in half, even when two emoji share a high surrogate", () => {
		// 👍 and 👎 are D83D DC4D and D83D DC4E: a character diff would keep D83D as "equal".
		const ops = wordDiff("ok 👍", "ok 👎");
		expect(ops).toEqual([
			{ kind: "equal", text: "ok " },
			{ kind: "delete", text: "👍" },
			{ kind: "insert", text: "👎" },
		]);
	});

	it("keeps a skin-tone or ZWJ sequence together", () => {
		expect(tokenize("hi 👍🏽 👨‍👩‍👧")).toEqual(["hi", " ", "👍🏽", " ", "👨‍👩‍👧"]);
		const ops = wordDiff("👨‍👩‍👧 and 👍🏽", "👨‍👩‍👦 and 👍🏿");
		expect(ops.filter((op) => op.kind !== "equal").map((op) => op.text)).toEqual(["👨‍👩‍👧", "👨‍👩‍👦", "👍🏽", "👍🏿"]);
	});

	it("reproduces both inputs and never cuts a surrogate pair (property)", () => {
		const piece = fc.oneof(
			fc.string({ unit: "grapheme", maxLength: 4 }),
			fc.constantFrom("👍", "👎", "🏽", "👨‍👩‍👧", "𝄞", " ", "word", "\n", "é", "e\u0301"),
		);
		const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
		fc.assert(
			fc.property(text, text, (a, b) => {
				const ops = wordDiff(a, b);
				expect(before(ops)).toBe(a);
				expect(after(ops)).toBe(b);
				for (const op of ops) expect(cutsPair(op.text)).toBe(false);
			}),
			{ numRuns: 300 },
		);
	});
});
