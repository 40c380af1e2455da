/** Scope parent: a heading's section moves, re-levelled, under another heading or to the top level. */
import { describe, expect, it } from "vitest";
import { applyPatch, type PatchDestination, type PatchResult } from "../../src/core/patch";

const NOTE =
	"# Overview\n\nintro\n\n## Details\n\ndetail text\n\n### Deep\n\ndeep text\n\n# Appendix\n\n## First\n\nfirst text\n";

const move = (path: string[], destination: PatchDestination) =>
	applyPatch(
		NOTE,
		{
			operation: "replace",
			targetType: "heading",
			target: path.join("::"),
			headingPath: path,
			relativeHeadings: true,
			scope: "parent",
			destination,
		},
		"",
	);

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

describe("moving a heading section", () => {
	it("moves a section last under a new parent, subtree and all", () => {
		expect(patched(move(["Overview", "Details"], { parent: ["Appendix"], place: "last" }))).toBe(
			"# Overview\n\nintro\n\n# Appendix\n\n## First\n\nfirst text\n\n## Details\n\ndetail text\n\n### Deep\n\ndeep text\n",
		);
	});

	it("moves first under a parent, and before or after a sibling", () => {
		const first = patched(move(["Overview", "Details"], { parent: ["Appendix"], place: "first" }));
		expect(first).toBe(
			"# Overview\n\nintro\n\n# Appendix\n\n## Details\n\ndetail text\n\n### Deep\n\ndeep text\n\n## First\n\nfirst text\n",
		);
		expect(
			patched(move(["Overview", "Details"], { parent: ["Appendix"], place: { before: ["Appendix", "First"] } })),
		).toBe(first);
		expect(patched(move(["Overview", "Details"], { parent: ["Appendix"], place: { after: ["First"] } }))).toBe(
			patched(move(["Overview", "Details"], { parent: ["Appendix"], place: "last" })),
		);
	});

	it("re-levels a section moved to the top level", () => {
		expect(patched(move(["Overview", "Details"], { parent: null, place: "last" }))).toBe(
			"# Overview\n\nintro\n\n# Appendix\n\n## First\n\nfirst text\n\n# Details\n\ndetail text\n\n## Deep\n\ndeep text\n",
		);
	});

	it("keeps every line of text it moves", () => {
		const result = patched(move(["Overview"], { parent: ["Appendix"], place: "last" }));
		for (const line of NOTE.split("\n").filter((line) => line !== "" && !line.startsWith("#")))
			expect(result).toContain(line);
		expect(result).toContain("#### Deep");
	});

	it("refuses a move under itself, to a missing parent, and beside a heading of another parent", () => {
		expect(move(["Overview"], { parent: ["Overview", "Details"], place: "last" })).toMatchObject({
			ok: false,
			reason: "invalid-instruction",
		});
		expect(move(["Overview", "Details"], { parent: ["Nope"], place: "last" })).toMatchObject({
			ok: false,
			reason: "target-not-found",
		});
		expect(move(["Overview", "Details"], { parent: ["Appendix"], place: { before: ["Overview", "X"] } })).toMatchObject(
			{ ok: false, reason: "invalid-instruction" },
		);
	});
});
