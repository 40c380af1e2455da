/** The merge view's pure helpers: block text rules and pane highlighting (conflict navigation: navigation.test.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeThreeWay, renderMerge } from "../../../src/core/merge";
import {
	fromDisplay,
	joinLines,
	markerText,
	offsetAfterLines,
	offsetBeforeLastLines,
	toDisplay,
} from "../../../src/ui/merge/block-text";
import { changes, paneTexts } from "../../../src/ui/merge/highlight";
import { MergeState } from "../../../src/ui/merge/merge-state";

describe("block text", () => {
	it("cuts lines, a last line without terminator included", () => {
		expect(offsetAfterLines("a\nb\nc", 2)).toBe(4);
		expect(offsetAfterLines("a\nb", 5)).toBe(3);
		expect(offsetBeforeLastLines("a\nb\nc\n", 2)).toBe(2);
		expect(offsetBeforeLastLines("a\nb\nc", 1)).toBe(4);
		expect(offsetBeforeLastLines("a\nb\n", 9)).toBe(0);
	});

	it("joins two sides as whole lines", () => {
		expect(joinLines("a", "b\n", "\r\n")).toBe("a\r\nb\n");
		expect(joinLines("a\n", "b", "\n")).toBe("a\nb");
		expect(joinLines("", "b", "\n")).toBe("b");
	});

	it("writes markers exactly as the engine renders a lone conflict", () => {
		for (const [base, mine, theirs] of [
			["a\n", "b\n", "c\n"],
			["a", "b", "c"],
			["a\r\n", "b\r\n", "c\r\n"],
			["x\na\n", "x\n", "x\nc"],
		] as const) {
			const result = mergeThreeWay(base, mine, theirs);
			const conflict = result.regions.find((region) => region.kind === "conflict");
			expect(conflict).toBeDefined();
			if (conflict?.kind !== "conflict") continue;
			const rendered = renderMerge(result);
			expect(rendered).toContain(markerText(conflict, "\n"));
		}
	});

	it("shows a block in its textarea and takes it back byte for byte (property)", () => {
		const line = fc.constantFrom("a\n", "b c\n", "\n", "d\r\n", "\r\n", "  e\n");
		const text = fc
			.tuple(fc.array(line, { maxLength: 6 }), fc.constantFrom("", "end"))
			.map(([lines, last]) => lines.join("") + last);
		fc.assert(
			fc.property(text, fc.boolean(), (reference, terminated) => {
				expect(fromDisplay(toDisplay(reference), reference, "\n", terminated)).toBe(reference);
			}),
		);
	});

	it("keeps the reference's line ending and final newline for typed text", () => {
		expect(fromDisplay("x\ny", "a\r\nb\r\n", "\n", true)).toBe("x\r\ny\r\n");
		expect(fromDisplay("x", "a", "\n", true)).toBe("x");
		expect(fromDisplay("", "a\nb\n", "\n", true)).toBe("");
		expect(fromDisplay("x", "", "\r\n", true)).toBe("x\r\n");
		expect(fromDisplay("x", "", "\n", false)).toBe("x");
	});
});

describe("pane highlighting", () => {
	it("marks each side's words against base, and only the changed side", () => {
		const state = new MergeState("a b\nkeep\nc d\n", "a B\nkeep\nc d\n", "a b\nkeep\nc D\n");
		expect(state.blockList.map((block) => (block.kind === "stable" ? block.origin : "conflict"))).toEqual([
			"mine",
			"base",
			"theirs",
		]);
		const mine = paneTexts(state.blockList[0] ?? fail());
		expect(mine.mine).toEqual([
			{ kind: "same", text: "a " },
			{ kind: "removed", text: "b" },
			{ kind: "added", text: "B" },
			{ kind: "same", text: "\n" },
		]);
		expect(mine.theirs).toEqual([{ kind: "same", text: "a b\n" }]);
		const theirs = paneTexts(state.blockList[2] ?? fail());
		expect(theirs.mine).toEqual([{ kind: "same", text: "c d\n" }]);
		expect(theirs.theirs.filter((segment) => segment.kind === "added")).toEqual([{ kind: "added", text: "D" }]);
	});

	it("marks what differs between the sides when there is no base", () => {
		const state = new MergeState(null, "one two\n", "one three\n");
		const block = state.blockList[0];
		expect(block?.kind).toBe("conflict");
		const texts = paneTexts(block ?? fail());
		expect(texts.base).toEqual([]);
		expect(texts.mine).toEqual([
			{ kind: "same", text: "one " },
			{ kind: "added", text: "two" },
			{ kind: "same", text: "\n" },
		]);
		expect(texts.theirs.map((segment) => segment.text).join("")).toBe("one three\n");
	});

	it("shows huge texts unmarked rather than stall", () => {
		const big = "word ".repeat(50_000);
		expect(changes(big, big + "more")).toEqual([{ kind: "same", text: big + "more" }]);
	});
});

function fail(): never {
	throw new Error("missing block");
}
