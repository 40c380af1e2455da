import { describe, expect, it } from "vitest";
import { applyPatch, type PatchInstruction, type PatchResult } from "../../src/core/patch";

const key = (
	operation: PatchInstruction["operation"],
	target: string,
	extra: Partial<PatchInstruction> = {},
): PatchInstruction => ({ operation, targetType: "frontmatter", target, ...extra });

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

const NOTE =
	'---\n# a comment\ntitle: "Plan" # keep me\nstatus: draft\ntags: [a, b]\naliases:\n  - P\ncount: 3\ndate: 2026-01-02\n---\n# Body\ntext\n';

describe("applyPatch on a frontmatter key", () => {
	it("replaces a value in place: other keys, their order, quoting and comments stay", () => {
		expect(patched(applyPatch(NOTE, key("replace", "status"), "done"))).toBe(
			NOTE.replace("status: draft", "status: done"),
		);
		expect(patched(applyPatch(NOTE, key("replace", "title"), "New"))).toBe(NOTE.replace('"Plan"', '"New"'));
	});

	it("takes the body as JSON with a JSON content type, else as one string", () => {
		expect(patched(applyPatch(NOTE, key("replace", "count", { json: true }), "4"))).toBe(
			NOTE.replace("count: 3", "count: 4"),
		);
		expect(patched(applyPatch(NOTE, key("replace", "count"), "4"))).toBe(NOTE.replace("count: 3", 'count: "4"'));
		expect(patched(applyPatch(NOTE, key("replace", "status", { json: true }), '{"phase": 2, "owners": ["x"]}'))).toBe(
			NOTE.replace("status: draft", "status:\n  phase: 2\n  owners:\n    - x"),
		);
	});

	it("refuses a body that is not JSON when it says it is", () => {
		expect(applyPatch(NOTE, key("replace", "count", { json: true }), "{nope")).toMatchObject({
			ok: false,
			reason: "invalid-value",
		});
	});

	it("creates a missing key with replace, at the end of the frontmatter", () => {
		expect(patched(applyPatch(NOTE, key("replace", "owner"), "me"))).toBe(
			NOTE.replace("date: 2026-01-02\n", "date: 2026-01-02\nowner: me\n"),
		);
	});

	it("creates the frontmatter block when the note has none (after a BOM, if any)", () => {
		expect(patched(applyPatch("# Body\n", key("replace", "status"), "done"))).toBe("---\nstatus: done\n---\n# Body\n");
		expect(patched(applyPatch("\ufeffBody", key("replace", "status"), "done"))).toBe(
			"\ufeff---\nstatus: done\n---\nBody",
		);
		expect(patched(applyPatch("---\n---\nBody\n", key("replace", "status"), "done"))).toBe(
			"---\nstatus: done\n---\nBody\n",
		);
	});

	it("appends and prepends items to a list (one item, or each item of a JSON array)", () => {
		expect(patched(applyPatch(NOTE, key("append", "tags"), "c"))).toBe(NOTE.replace("[a, b]", "[a, b, c]"));
		expect(patched(applyPatch(NOTE, key("prepend", "tags", { json: true }), '["x", "y"]'))).toBe(
			NOTE.replace("[a, b]", "[x, y, a, b]"),
		);
		expect(patched(applyPatch(NOTE, key("append", "aliases"), "Q"))).toBe(NOTE.replace("  - P\n", "  - P\n  - Q\n"));
	});

	it("concatenates text onto a text value", () => {
		expect(patched(applyPatch(NOTE, key("append", "status"), "-v2"))).toBe(
			NOTE.replace("status: draft", "status: draft-v2"),
		);
		expect(patched(applyPatch(NOTE, key("prepend", "status", { json: true }), '"early "'))).toBe(
			NOTE.replace("status: draft", "status: early draft"),
		);
	});

	it("refuses to append to a number, or to append a non-text to text", () => {
		expect(applyPatch(NOTE, key("append", "count"), "1")).toMatchObject({ ok: false, reason: "invalid-value" });
		expect(applyPatch(NOTE, key("append", "status", { json: true }), "[1]")).toMatchObject({
			ok: false,
			reason: "invalid-value",
		});
	});

	it("refuses to append to a missing key unless asked to create it", () => {
		expect(applyPatch(NOTE, key("append", "owners"), "me")).toMatchObject({ ok: false, reason: "target-not-found" });
		expect(
			patched(applyPatch(NOTE, key("append", "owners", { createTargetIfMissing: true, json: true }), '["me"]')),
		).toBe(NOTE.replace("date: 2026-01-02\n", "date: 2026-01-02\nowners:\n  - me\n"));
	});

	it("sets an empty key on append", () => {
		expect(patched(applyPatch("---\nowner:\n---\n", key("append", "owner"), "me"))).toBe("---\nowner: me\n---\n");
	});

	it("never rewrites frontmatter that is not valid YAML, or not a map", () => {
		const unclosed = applyPatch("---\ntitle: [unclosed\n---\nx\n", key("replace", "a"), "b");
		expect(unclosed).toMatchObject({ ok: false, reason: "invalid-frontmatter" });
		// Where the parser stopped, in one line, so the agent can fix that spot.
		expect(unclosed).toMatchObject({
			detail: expect.stringMatching(/^Nothing was changed: the YAML parser stopped with "[^\n]+[^:]" \(lines counted/),
		});
		expect(applyPatch("---\n- a list\n---\nx\n", key("replace", "a"), "b")).toMatchObject({
			ok: false,
			reason: "invalid-frontmatter",
		});
	});

	it("refuses an empty key", () => {
		expect(applyPatch(NOTE, key("replace", "  "), "b")).toMatchObject({ ok: false, reason: "invalid-target" });
	});

	it("keeps CRLF line breaks and the body untouched", () => {
		const note = "---\r\nstatus: draft\r\n---\r\nBody\r\n";
		expect(patched(applyPatch(note, key("replace", "status"), "done"))).toBe("---\r\nstatus: done\r\n---\r\nBody\r\n");
	});
});
