import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { occurrenceKey } from "../../src/core/markdown/occurrences";
import { applyPatch, type PatchInstruction, type PatchResult } from "../../src/core/patch";

const heading = (
	operation: PatchInstruction["operation"],
	target: string,
	extra: Partial<PatchInstruction> = {},
): PatchInstruction => ({ operation, targetType: "heading", target, ...extra });

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

const NOTE = [
	"---",
	"title: Plan",
	"---",
	"# Week",
	"intro",
	"",
	"## Monday",
	"- one",
	"",
	"",
	"## Tuesday",
	"- two",
	"# Later",
	"end",
].join("\n");

describe("applyPatch on a heading", () => {
	it("appends at the end of the section, before its trailing blank lines", () => {
		expect(patched(applyPatch(NOTE, heading("append", "Week::Monday"), "- added\n"))).toBe(
			NOTE.replace("- one\n", "- one\n- added\n"),
		);
	});

	it("adds the missing line break after appended text", () => {
		expect(patched(applyPatch(NOTE, heading("append", "Week::Monday"), "- added"))).toBe(
			NOTE.replace("- one\n", "- one\n- added\n"),
		);
	});

	it("prepends right after the heading line", () => {
		expect(patched(applyPatch(NOTE, heading("prepend", "Week::Tuesday"), "- first"))).toBe(
			NOTE.replace("## Tuesday\n", "## Tuesday\n- first\n"),
		);
	});

	it("replaces the section's content and keeps the blank lines before the next heading", () => {
		expect(patched(applyPatch(NOTE, heading("replace", "Week::Monday"), "- new\n"))).toBe(
			NOTE.replace("- one\n", "- new\n"),
		);
	});

	it("treats subheadings as part of a section: it runs to the next heading of the same or a higher level", () => {
		expect(patched(applyPatch(NOTE, heading("append", "Week"), "tail"))).toBe(NOTE.replace("- two\n", "- two\ntail\n"));
		expect(patched(applyPatch(NOTE, heading("replace", "Week"), "only\n"))).toBe(
			["---", "title: Plan", "---", "# Week", "only", "# Later", "end"].join("\n"),
		);
	});

	it("works on the last section of a note without a final line break", () => {
		expect(patched(applyPatch(NOTE, heading("append", "Later"), "more"))).toBe(NOTE + "\nmore\n");
		expect(patched(applyPatch("# Only", heading("append", "Only"), "x"))).toBe("# Only\nx\n");
		expect(patched(applyPatch("# Only", heading("prepend", "Only"), "x"))).toBe("# Only\nx\n");
	});

	it("fills an empty section", () => {
		expect(patched(applyPatch("# A\n\n# B\n", heading("append", "A"), "x\n"))).toBe("# A\nx\n\n# B\n");
		expect(patched(applyPatch("# A\n# B\n", heading("replace", "A"), "x"))).toBe("# A\nx\n# B\n");
	});

	it("needs the whole chain of headings, outermost first, and trims each part", () => {
		expect(applyPatch(NOTE, heading("append", "Monday"), "x")).toMatchObject({ ok: false, reason: "target-not-found" });
		expect(patched(applyPatch(NOTE, heading("append", " Week :: Monday "), "x"))).toBe(
			NOTE.replace("- one\n", "- one\nx\n"),
		);
	});

	it("follows skipped levels: the chain is the headings that enclose it", () => {
		const note = "# A\n### Deep\ntext\n## B\n";
		expect(patched(applyPatch(note, heading("append", "A::Deep"), "x"))).toBe("# A\n### Deep\ntext\nx\n## B\n");
	});

	it("uses Target-Delimiter when given", () => {
		expect(patched(applyPatch(NOTE, heading("append", "Week/Tuesday", { delimiter: "/" }), "x"))).toBe(
			NOTE.replace("- two\n", "- two\nx\n"),
		);
	});

	it("reads closing #s, indentation and a heading that is only #s", () => {
		const note = "  ## Closed ##\nbody\n#\nempty heading\n";
		expect(patched(applyPatch(note, heading("append", "Closed"), "x"))).toBe(
			"  ## Closed ##\nbody\nx\n#\nempty heading\n",
		);
	});

	it("ignores # lines inside fenced code, and keeps code in the section", () => {
		const note = "# A\n```\n# not a heading\n```\n# B\nb\n";
		expect(patched(applyPatch(note, heading("append", "A"), "x"))).toBe("# A\n```\n# not a heading\n```\nx\n# B\nb\n");
		expect(applyPatch(note, heading("append", "not a heading"), "x")).toMatchObject({
			ok: false,
			reason: "target-not-found",
		});
	});

	it("does not take #tags or a frontmatter comment for headings", () => {
		const note = "---\n# comment: x\n---\n#tag\n# Real\n";
		expect(applyPatch(note, heading("append", "comment: x"), "x")).toMatchObject({
			ok: false,
			reason: "target-not-found",
		});
		expect(patched(applyPatch(note, heading("append", "Real"), "x"))).toBe(note + "x\n");
	});

	it("keeps CRLF line breaks for what it adds", () => {
		const note = "# A\r\none\r\n\r\n# B\r\n";
		expect(patched(applyPatch(note, heading("append", "A"), "two"))).toBe("# A\r\none\r\ntwo\r\n\r\n# B\r\n");
	});

	it("addresses each of two headings with the same path by its key: the plain text is the first", () => {
		const note = "# A\n## Notes\n# A\n## Notes\n";
		expect(applyPatch(note, heading("append", "A::Notes"), "x")).toMatchObject({
			ok: true,
			content: "# A\n## Notes\nx\n# A\n## Notes\n",
		});
		const second = { ...heading("append", ""), headingPath: [occurrenceKey("A", 2), "Notes"] };
		expect(applyPatch(note, second, "x")).toMatchObject({ ok: true, content: "# A\n## Notes\n# A\n## Notes\nx\n" });
		// A later occurrence that is not there is missing, and never created under its key.
		const third = { ...heading("append", ""), headingPath: [occurrenceKey("A", 3)], createTargetIfMissing: true };
		expect(applyPatch(note, third, "x")).toMatchObject({ ok: false, reason: "target-not-found" });
	});

	it("names the note's headings when the target is missing", () => {
		const result = applyPatch(NOTE, heading("append", "Week::Sunday"), "x");
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.detail).toContain("## Monday");
	});

	it("refuses an empty path part or a line break in the target", () => {
		expect(applyPatch(NOTE, heading("append", "Week::"), "x")).toMatchObject({ ok: false, reason: "invalid-target" });
		expect(applyPatch(NOTE, heading("append", "We\nek"), "x")).toMatchObject({
			ok: false,
			reason: "invalid-target",
			detail: expect.any(String),
		});
	});

	it("creates a missing heading under its deepest existing parent with Create-Target-If-Missing", () => {
		const result = applyPatch(NOTE, heading("append", "Week::Monday::Notes", { createTargetIfMissing: true }), "x");
		expect(patched(result)).toBe(NOTE.replace("- one\n", "- one\n\n### Notes\nx\n"));
		expect(patched(applyPatch("# A\n", heading("append", "A::B::C", { createTargetIfMissing: true }), "x"))).toBe(
			"# A\n## B\n### C\nx\n",
		);
	});

	it("creates a missing top-level heading at the end of the note, after a blank line", () => {
		expect(patched(applyPatch("text", heading("prepend", "New", { createTargetIfMissing: true }), "x"))).toBe(
			"text\n\n# New\nx\n",
		);
		expect(patched(applyPatch("", heading("replace", "New", { createTargetIfMissing: true }), "x"))).toBe("# New\nx\n");
	});

	it("cannot create headings deeper than level 6", () => {
		const result = applyPatch(
			"##### Five\n",
			heading("append", "Five::Six::Seven", { createTargetIfMissing: true }),
			"x",
		);
		expect(result).toMatchObject({ ok: false, reason: "invalid-target" });
	});

	// Each missing level was searched for in the whole note: a 20,000-part path over 20,000 headings took minutes.
	it("refuses to create a path longer than six headings without searching for each part", () => {
		const path = Array.from({ length: 100_000 }, (_, index) => `p${index}`);
		const result = applyPatch(
			"# h\n".repeat(100_000),
			heading("append", path.join("::"), { headingPath: path, createTargetIfMissing: true }),
			"x",
		);
		expect(result).toMatchObject({ ok: false, reason: "invalid-target" });
		expect(
			patched(applyPatch("# A\n", heading("append", "A::B::C::D::E::F", { createTargetIfMissing: true }), "x")),
		).toBe("# A\n## B\n### C\n#### D\n##### E\n###### F\nx\n");
	});

	it("changes nothing outside the target section (property)", () => {
		const line = fc.oneof(
			fc.constantFrom("", "text", "- item", "```", "# One", "## Two", "### Three", "#tag"),
			fc.stringMatching(/^[a-z ]{0,8}$/),
		);
		fc.assert(
			fc.property(
				fc.array(line, { maxLength: 20 }),
				fc.constantFrom("append", "prepend", "replace") as fc.Arbitrary<PatchInstruction["operation"]>,
				(lines, operation) => {
					const note = ["# Target", ...lines].join("\n");
					const result = applyPatch(note, heading(operation, "Target"), "BODY");
					if (!result.ok) return result.reason === "ambiguous-target";
					// Whatever the operation, the heading stays first and the inserted body appears exactly once.
					expect(result.content.startsWith("# Target")).toBe(true);
					expect(result.content.split("BODY").length).toBe(2);
					// Append and prepend only insert: taking the body out gives the note back (plus the line break it
					// needed when it went after an unterminated last line).
					const without = result.content.replace("BODY\n", "");
					if (operation !== "replace") expect([note, note + "\n"]).toContain(without);
					return true;
				},
			),
		);
	});
});
