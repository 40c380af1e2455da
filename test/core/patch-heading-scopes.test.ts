/** A heading's marker (rename, dissolve) and markerAndContent (rewrite, remove, sibling before/after), format 2 and 1. */
import { describe, expect, it } from "vitest";
import { applyPatch, type PatchInstruction, type PatchResult } from "../../src/core/patch";

const NOTE = "---\ntitle: T\n---\n# Alpha\n\nalpha body\n\n## Sub\n\nsub body\n\n# Delta\n\ndelta body\n";

const v2 = (
	operation: PatchInstruction["operation"],
	path: string[],
	scope: PatchInstruction["scope"],
	extra: Partial<PatchInstruction> = {},
): PatchInstruction => ({
	operation,
	targetType: "heading",
	target: path.join("::"),
	headingPath: path,
	relativeHeadings: true,
	scope,
	...extra,
});

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

describe("scope marker on a heading", () => {
	it("renames the heading and keeps its level and its body", () => {
		expect(patched(applyPatch(NOTE, v2("replace", ["Alpha", "Sub"], "marker"), "Renamed\n"))).toBe(
			NOTE.replace("## Sub\n", "## Renamed\n"),
		);
	});

	it("takes #s in a format 2 rename as text, as LRA does (they are not stripped)", () => {
		expect(patched(applyPatch(NOTE, v2("replace", ["Delta"], "marker"), "## New"))).toContain("# ## New\n");
	});

	it("takes a whole heading line in a format 1 rename (Target-Scope: marker), level included", () => {
		const instruction: PatchInstruction = {
			operation: "replace",
			targetType: "heading",
			target: "Alpha::Sub",
			scope: "marker",
		};
		expect(patched(applyPatch(NOTE, instruction, "### Deeper\n"))).toBe(NOTE.replace("## Sub\n", "### Deeper\n"));
		expect(patched(applyPatch(NOTE, instruction, "Plain\n"))).toBe(NOTE.replace("## Sub\n", "## Plain\n"));
	});

	it("dissolves the heading line on delete and keeps its body", () => {
		expect(patched(applyPatch(NOTE, v2("delete", ["Alpha", "Sub"], "marker"), ""))).toBe(NOTE.replace("## Sub\n", ""));
	});

	it("refuses an empty or multi-line rename, and append/prepend to a marker", () => {
		expect(applyPatch(NOTE, v2("replace", ["Delta"], "marker"), "")).toMatchObject({
			ok: false,
			reason: "invalid-instruction",
		});
		expect(applyPatch(NOTE, v2("replace", ["Delta"], "marker"), "a\nb")).toMatchObject({
			ok: false,
			reason: "invalid-instruction",
		});
		expect(applyPatch(NOTE, v2("append", ["Delta"], "marker"), "x")).toMatchObject({
			ok: false,
			reason: "invalid-instruction",
		});
	});
});

describe("scope markerAndContent on a heading", () => {
	it("removes the whole section, subheadings included", () => {
		expect(patched(applyPatch(NOTE, v2("delete", ["Alpha"], "markerAndContent"), ""))).toBe(
			"---\ntitle: T\n---\n# Delta\n\ndelta body\n",
		);
	});

	it("removes the last section without leaving blank lines at the end", () => {
		expect(patched(applyPatch(NOTE, v2("delete", ["Delta"], "markerAndContent"), ""))).toBe(
			"---\ntitle: T\n---\n# Alpha\n\nalpha body\n\n## Sub\n\nsub body\n",
		);
	});

	it("rewrites heading and section, # landing at the target's own level", () => {
		expect(
			patched(applyPatch(NOTE, v2("replace", ["Alpha", "Sub"], "markerAndContent"), "# New\n\n## Child\nbody")),
		).toBe(NOTE.replace("## Sub\n\nsub body\n", "## New\n\n### Child\nbody\n"));
	});

	it("adds a sibling section after the subtree and before it", () => {
		const after = patched(applyPatch(NOTE, v2("append", ["Alpha"], "markerAndContent"), "# Beta\nbeta body"));
		expect(after).toBe(NOTE.replace("sub body\n", "sub body\n\n# Beta\nbeta body\n"));
		const before = patched(applyPatch(NOTE, v2("prepend", ["Delta"], "markerAndContent"), "# Gamma\ngamma body"));
		expect(before).toBe(NOTE.replace("# Delta\n", "# Gamma\ngamma body\n\n# Delta\n"));
	});

	it("warns (heading-depth-overflow) when a heading would go past level 6, and writes it at 6", () => {
		const result = applyPatch(NOTE, v2("replace", ["Delta"], "content"), "###### deep");
		expect(result).toMatchObject({ ok: true, warnings: [{ code: "heading-depth-overflow" }] });
		expect(patched(result)).toContain("###### deep\n");
	});

	it("names at most five overflowing headings, then counts the rest (the warnings travel in a header)", () => {
		const many = Array.from({ length: 40 }, (_, index) => `###### h${index}`).join("\n");
		const result = applyPatch(NOTE, v2("replace", ["Delta"], "content"), many);
		expect(result.ok && result.warnings).toHaveLength(6);
		expect(result.ok && result.warnings?.[5]?.message).toMatch(/^35 more headings/);
	});
});

describe("Reject-If-Content-Preexists and Trim-Target-Whitespace on a heading", () => {
	it("refuses an append whose text is already in the section, and applies one that is not", () => {
		const guard = v2("append", ["Delta"], "content", { rejectIfContentPreexists: true });
		expect(applyPatch(NOTE, guard, "delta body\n")).toMatchObject({ ok: false, reason: "content-preexists" });
		expect(patched(applyPatch(NOTE, guard, "more\n"))).toContain("delta body\nmore\n");
		// Without the flag the same text lands again.
		expect(patched(applyPatch(NOTE, v2("append", ["Delta"], "content"), "delta body\n"))).toContain(
			"delta body\ndelta body\n",
		);
	});

	it("drops the blank lines between heading and body on a trimmed prepend", () => {
		const instruction: PatchInstruction = {
			operation: "prepend",
			targetType: "heading",
			target: "Delta",
			trimTargetWhitespace: true,
		};
		expect(patched(applyPatch(NOTE, instruction, "first\n"))).toBe(
			NOTE.replace("# Delta\n\ndelta body", "# Delta\nfirst\ndelta body"),
		);
	});
});
