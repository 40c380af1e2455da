/** Table rows as JSON on a table block, and a block's marker and markerAndContent scopes. */
import { describe, expect, it } from "vitest";
import { applyPatch, type PatchInstruction, type PatchResult } from "../../src/core/patch";

const NOTE =
	"Intro.\n\n| Column A | Column B |\n|----------|----------|\n| Row 1 A  | Row 1 B  |\n| Row 2 A  | Row 2 B  | ^table-block\n\nAfter. ^para\n";

const block = (
	operation: PatchInstruction["operation"],
	target: string,
	extra: Partial<PatchInstruction> = {},
): PatchInstruction => ({ operation, targetType: "block", target, ...extra });

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

describe("table rows as JSON", () => {
	it("appends rows after the last one, the id staying at the end", () => {
		expect(patched(applyPatch(NOTE, block("append", "table-block", { json: true }), '[["Row 3 A", "Row 3 B"]]'))).toBe(
			NOTE.replace("| Row 2 B  | ^table-block", "| Row 2 B  |\n| Row 3 A | Row 3 B | ^table-block"),
		);
	});

	it("prepends rows below the header and replaces the body rows", () => {
		expect(patched(applyPatch(NOTE, block("prepend", "table-block", { json: true }), '["x", "y"]'))).toBe(
			NOTE.replace("|----------|----------|\n", "|----------|----------|\n| x | y |\n"),
		);
		expect(patched(applyPatch(NOTE, block("replace", "table-block", { json: true }), '[["x", "y"]]'))).toBe(
			"Intro.\n\n| Column A | Column B |\n|----------|----------|\n| x | y | ^table-block\n\nAfter. ^para\n",
		);
	});

	it("escapes a | in a cell and refuses a line break, a wrong cell count or a block that is no table", () => {
		expect(patched(applyPatch(NOTE, block("append", "table-block", { json: true }), '[["a|b", "c"]]'))).toContain(
			"| a\\|b | c |",
		);
		expect(applyPatch(NOTE, block("append", "table-block", { json: true }), '[["a\\nb", "c"]]')).toMatchObject({
			ok: false,
			reason: "invalid-value",
		});
		expect(applyPatch(NOTE, block("append", "table-block", { json: true }), '[["a"]]')).toMatchObject({
			ok: false,
			reason: "invalid-value",
		});
		expect(applyPatch(NOTE, block("append", "para", { json: true }), '[["a"]]')).toMatchObject({
			ok: false,
			reason: "invalid-target",
		});
	});
});

describe("a block's marker and markerAndContent", () => {
	it("renames the id, and refuses an id the note already has", () => {
		expect(patched(applyPatch(NOTE, block("replace", "para", { scope: "marker" }), "after-para"))).toBe(
			NOTE.replace("^para", "^after-para"),
		);
		expect(applyPatch(NOTE, block("replace", "para", { scope: "marker" }), "table-block")).toMatchObject({
			ok: false,
			reason: "key-collision",
		});
	});

	it("removes the id and keeps the text", () => {
		expect(patched(applyPatch(NOTE, block("delete", "para", { scope: "marker" }), ""))).toBe(
			NOTE.replace(" ^para", ""),
		);
		const lone = "text\n^lone\n";
		expect(patched(applyPatch(lone, block("delete", "lone", { scope: "marker" }), ""))).toBe("text\n");
	});

	it("adds a block after the whole block", () => {
		expect(patched(applyPatch(NOTE, block("append", "para", { scope: "markerAndContent" }), "Next."))).toBe(
			NOTE + "\nNext.\n",
		);
	});

	it("refuses an append already in the block with rejectIfContentPreexists", () => {
		expect(applyPatch(NOTE, block("append", "para", { rejectIfContentPreexists: true }), "After.")).toMatchObject({
			ok: false,
			reason: "content-preexists",
		});
	});
});
