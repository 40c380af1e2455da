import { describe, expect, it } from "vitest";
import { occurrenceKey } from "../../../src/core/markdown/occurrences";
import { parseMarkdown } from "../../../src/core/markdown/structure";
import { headingSections } from "../../../src/core/markdown/sections";
import { applyPatch } from "../../../src/core/patch";

describe("headingSections", () => {
	it("ends each section at the next heading of the same or a higher level", () => {
		const note = "# A\na\n## B\nb\n### C\nc\n## D\nd\n# E\n";
		const doc = parseMarkdown(note);
		const [b] = headingSections(doc, ["A", "B"]);
		expect(note.slice(b!.contentStart, b!.contentEnd)).toBe("b\n### C\nc\n");
		const [a] = headingSections(doc, ["A"]);
		expect(note.slice(a!.contentStart, a!.contentEnd)).toBe("a\n## B\nb\n### C\nc\n## D\nd\n");
		const [e] = headingSections(doc, ["E"]);
		expect(e!.contentEnd).toBe(note.length);
	});

	// Searching forward from every match made this quadratic: 200,000 same-named headings (an 800 KB note) kept the
	// host busy for minutes on each PATCH or URL-target read. In one pass it is answered at once.
	it("stays linear in a note of many same-named headings", () => {
		const note = "# A\n".repeat(200_000);
		expect(headingSections(parseMarkdown(note), ["A"])).toHaveLength(1);
		expect(headingSections(parseMarkdown(note), [occurrenceKey("A", 200_000)])).toHaveLength(1);
		expect(applyPatch(note, { operation: "append", targetType: "heading", target: "A" }, "x")).toMatchObject({
			ok: true,
		});
	});
});
