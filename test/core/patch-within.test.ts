/** `within`: one top-level block of a section's own body, by index, spliced literally or given a sibling block. */
import { describe, expect, it } from "vitest";
import { applyPatch, type PatchInstruction, type PatchResult } from "../../src/core/patch";

const NOTE = "# Log\n\nfirst para\n\n- a\n- b\n\n```\ncode\n\nmore\n```\n^id1\n\n## Child\n\nchild para\n";

const within = (
	operation: PatchInstruction["operation"],
	index: number,
	extra: Partial<PatchInstruction> = {},
): PatchInstruction => ({
	operation,
	targetType: "heading",
	target: "Log",
	headingPath: ["Log"],
	relativeHeadings: true,
	within: index,
	...extra,
});

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

describe("within", () => {
	it("continues a block literally: the client owns the joint", () => {
		expect(patched(applyPatch(NOTE, within("append", 0), " continued"))).toBe(
			NOTE.replace("first para", "first para continued"),
		);
		expect(patched(applyPatch(NOTE, within("append", 1), "\n- c"))).toBe(NOTE.replace("- b\n", "- b\n- c\n"));
	});

	it("counts from the end with a negative index, stops at the first subheading and counts a fence as one block", () => {
		expect(patched(applyPatch(NOTE, within("append", -1), "\n// end"))).toBe(
			NOTE.replace("more\n```", "more\n```\n// end"),
		);
		expect(patched(applyPatch(NOTE, within("prepend", 2), "x"))).toBe(NOTE.replace("```\ncode", "x```\ncode"));
	});

	it("deletes the block alone, with one blank line", () => {
		expect(patched(applyPatch(NOTE, within("delete", 1), ""))).toBe(NOTE.replace("- a\n- b\n\n", ""));
	});

	it("adds a new block beside it with markerAndContent", () => {
		expect(patched(applyPatch(NOTE, within("append", 0, { scope: "markerAndContent" }), "new para\n"))).toBe(
			NOTE.replace("first para\n", "first para\n\nnew para\n"),
		);
		expect(patched(applyPatch(NOTE, within("prepend", 0, { scope: "markerAndContent" }), "new para"))).toBe(
			NOTE.replace("first para\n", "new para\n\nfirst para\n"),
		);
	});

	it("answers an index out of range as target-not-found naming the count", () => {
		const result = applyPatch(NOTE, within("append", 9), "x");
		expect(result).toMatchObject({ ok: false, reason: "target-not-found" });
		expect(!result.ok && result.detail).toMatch(/out of range.*3 blocks/);
	});

	it("is refused with scope marker, with createTargetIfMissing and on other targets", () => {
		expect(applyPatch(NOTE, within("replace", 0, { scope: "marker" }), "x")).toMatchObject({
			ok: false,
			reason: "invalid-instruction",
			detail: expect.stringContaining("within-refined"),
		});
		expect(applyPatch(NOTE, within("append", 0, { createTargetIfMissing: true }), "x")).toMatchObject({
			ok: false,
			reason: "invalid-instruction",
			detail: expect.stringContaining("createTargetIfMissing"),
		});
		expect(applyPatch(NOTE, { operation: "append", targetType: "block", target: "id1", within: 0 }, "x")).toMatchObject(
			{ ok: false, reason: "invalid-instruction" },
		);
	});
});
