import { describe, expect, it } from "vitest";
import { occurrenceKey } from "../../src/core/markdown/occurrences";
import { applyPatch, type PatchInstruction, type PatchResult } from "../../src/core/patch";

const block = (
	operation: PatchInstruction["operation"],
	target: string,
	extra: Partial<PatchInstruction> = {},
): PatchInstruction => ({ operation, targetType: "block", target, ...extra });

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

const NOTE =
	"# Notes\n\nSome text with an id ^para\n\n- one ^item\n- two\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n^table\n";

describe("applyPatch on a block", () => {
	it("replaces a paragraph's text and keeps its id at the end", () => {
		expect(patched(applyPatch(NOTE, block("replace", "para"), "New text\n"))).toBe(
			NOTE.replace("Some text with an id ^para", "New text ^para"),
		);
	});

	it("appends and prepends lines to the block, the id still closing it", () => {
		expect(patched(applyPatch(NOTE, block("append", "para"), "More"))).toBe(
			NOTE.replace("Some text with an id ^para", "Some text with an id\nMore ^para"),
		);
		expect(patched(applyPatch(NOTE, block("prepend", "para"), "Before"))).toBe(
			NOTE.replace("Some text with an id ^para", "Before\nSome text with an id ^para"),
		);
	});

	it("changes the block above an id that stands on its own line, leaving the id line alone", () => {
		expect(patched(applyPatch(NOTE, block("append", "table"), "| 3 | 4 |"))).toBe(
			NOTE.replace("| 1 | 2 |\n", "| 1 | 2 |\n| 3 | 4 |\n"),
		);
	});

	it("accepts the id with its ^", () => {
		expect(patched(applyPatch(NOTE, block("replace", "^item"), "- uno"))).toBe(
			NOTE.replace("- one ^item", "- uno ^item"),
		);
	});

	it("deletes the block together with its id", () => {
		expect(patched(applyPatch(NOTE, block("delete", "item"), ""))).toBe(NOTE.replace("- one ^item\n", ""));
		expect(patched(applyPatch(NOTE, block("delete", "table"), ""))).toBe(
			"# Notes\n\nSome text with an id ^para\n\n- one ^item\n- two\n\n",
		);
	});

	it("refuses an id the note does not have, naming the ids it has, unless told to create it", () => {
		const missing = applyPatch(NOTE, block("append", "nope"), "x");
		expect(missing).toMatchObject({ ok: false, reason: "target-not-found" });
		expect(!missing.ok && missing.detail).toMatch(/\^para \^item \^table/);
		expect(patched(applyPatch(NOTE, block("append", "nope", { createTargetIfMissing: true }), "x"))).toBe(
			NOTE + "\nx ^nope\n",
		);
		expect(applyPatch(NOTE, block("delete", "nope", { createTargetIfMissing: true }), "")).toMatchObject({
			ok: false,
			reason: "target-not-found",
		});
	});

	it("addresses each occurrence of a repeated id by its key (the plain id is the first), and refuses a malformed one", () => {
		expect(patched(applyPatch("a ^x\n\nb ^x\n", block("append", "x"), "y"))).toBe("a\ny ^x\n\nb ^x\n");
		expect(patched(applyPatch("a ^x\n\nb ^x\n", block("append", occurrenceKey("x", 2)), "y"))).toBe(
			"a ^x\n\nb\ny ^x\n",
		);
		expect(applyPatch("a ^x\n\nb ^x\n", block("append", occurrenceKey("x", 3)), "y")).toMatchObject({
			ok: false,
			reason: "target-not-found",
		});
		// A later occurrence's key is never created, even when asked to create what is missing.
		expect(
			applyPatch("a ^x\n", { ...block("append", occurrenceKey("x", 2)), createTargetIfMissing: true }, "y"),
		).toMatchObject({ ok: false, reason: "target-not-found" });
		expect(applyPatch(NOTE, block("append", "not an id"), "y")).toMatchObject({ ok: false, reason: "invalid-target" });
	});

	it("writes CRLF into a CRLF note", () => {
		expect(patched(applyPatch("one ^x\r\n", block("append", "x"), "two\n"))).toBe("one\r\ntwo ^x\r\n");
	});
});
