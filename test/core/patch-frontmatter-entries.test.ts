/** Frontmatter keys renamed (marker) and entries inserted or replaced whole (markerAndContent), never overwritten. */
import { describe, expect, it } from "vitest";
import { applyPatch, type PatchInstruction, type PatchResult } from "../../src/core/patch";

const NOTE = "---\ntitle: Plan # the title\ntags:\n  - a\n  - b\nstatus: draft\n---\nbody\n";

const fm = (
	operation: PatchInstruction["operation"],
	target: string,
	extra: Partial<PatchInstruction> = {},
): PatchInstruction => ({ operation, targetType: "frontmatter", target, ...extra });

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

describe("frontmatter entries", () => {
	it("renames a key in place, keeping its value, position and comment", () => {
		expect(patched(applyPatch(NOTE, fm("replace", "title", { scope: "marker" }), "name"))).toBe(
			NOTE.replace("title:", "name:"),
		);
	});

	it("refuses a rename onto an existing key (409 in REST)", () => {
		expect(applyPatch(NOTE, fm("replace", "title", { scope: "marker" }), "tags")).toMatchObject({
			ok: false,
			reason: "key-collision",
		});
	});

	it("inserts entries after or before a key, and refuses a key that exists", () => {
		expect(
			patched(
				applyPatch(NOTE, fm("append", "title", { scope: "markerAndContent", json: true }), '{"due": "2026-01-01"}'),
			),
		).toBe(NOTE.replace("tags:", "due: 2026-01-01\ntags:"));
		expect(
			patched(applyPatch(NOTE, fm("prepend", "title", { scope: "markerAndContent", json: true }), '{"id": 7}')),
		).toBe(NOTE.replace("---\ntitle", "---\nid: 7\ntitle"));
		expect(
			applyPatch(NOTE, fm("append", "title", { scope: "markerAndContent", json: true }), '{"tags": ["x"]}'),
		).toMatchObject({ ok: false, reason: "key-collision" });
	});

	it("refuses an append of list items that are all there already with rejectIfContentPreexists", () => {
		expect(
			applyPatch(NOTE, fm("append", "tags", { json: true, rejectIfContentPreexists: true }), '["a"]'),
		).toMatchObject({ ok: false, reason: "content-preexists" });
		expect(
			patched(applyPatch(NOTE, fm("append", "tags", { json: true, rejectIfContentPreexists: true }), '["c"]')),
		).toContain("  - c\n");
	});

	it("merges a JSON object into a map value (new keys only; a key it has is refused, never overwritten)", () => {
		const note = "---\nmeta:\n  a: 1\n---\n";
		expect(patched(applyPatch(note, fm("append", "meta", { json: true }), '{"b": 2}'))).toBe(
			"---\nmeta:\n  a: 1\n  b: 2\n---\n",
		);
		expect(patched(applyPatch(note, fm("prepend", "meta", { json: true }), '{"z": 0}'))).toBe(
			"---\nmeta:\n  z: 0\n  a: 1\n---\n",
		);
		expect(applyPatch(note, fm("append", "meta", { json: true }), '{"a": 5}')).toMatchObject({
			ok: false,
			reason: "key-collision",
		});
	});
});
