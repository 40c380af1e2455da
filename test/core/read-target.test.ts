import { describe, expect, it } from "vitest";
import { occurrenceKey } from "../../src/core/markdown/occurrences";
import { applyPatch } from "../../src/core/patch";
import { readTarget } from "../../src/core/read-target";

const NOTE = "---\nstatus: draft\nlist: [1, 2]\n---\n# Plan\nintro\n## Next steps\n- one\n\n# Done\ntext ^b1\n";

describe("readTarget", () => {
	it("reads a heading's section, subheadings included, without the heading line", () => {
		expect(readTarget(NOTE, "heading", "", ["Plan"])).toEqual({ kind: "text", text: "intro\n## Next steps\n- one\n" });
		expect(readTarget(NOTE, "heading", "", ["Plan", "Next steps"])).toEqual({ kind: "text", text: "- one\n" });
	});

	it("reads a block's text and a frontmatter value", () => {
		expect(readTarget(NOTE, "block", "b1")).toEqual({ kind: "text", text: "text" });
		expect(readTarget(NOTE, "frontmatter", "list")).toEqual({ kind: "json", value: [1, 2] });
	});

	it("says what is missing, and what cannot be read", () => {
		expect(readTarget(NOTE, "heading", "", ["Next steps"])).toMatchObject({ kind: "missing" });
		expect(readTarget(NOTE, "block", "nope")).toMatchObject({ kind: "missing" });
		expect(readTarget(NOTE, "frontmatter", "toString")).toMatchObject({ kind: "missing" });
		// A repeated sibling: the plain text is the first occurrence, the key of the second (with its suffix) the second.
		expect(readTarget("# A\none\n# A\ntwo\n", "heading", "", ["A"])).toEqual({ kind: "text", text: "one\n" });
		expect(readTarget("# A\none\n# A\ntwo\n", "heading", "", [occurrenceKey("A", 2)])).toEqual({
			kind: "text",
			text: "two\n",
		});
		expect(readTarget("# A\none\n# A\ntwo\n", "heading", "", [occurrenceKey("A", 2)], "marker")).toEqual({
			kind: "text",
			text: "A",
		});
		expect(readTarget("a ^x\n\nb ^x\n", "block", occurrenceKey("x", 2))).toEqual({ kind: "text", text: "b" });
		expect(readTarget("---\n[1\n---\n", "frontmatter", "a")).toMatchObject({ kind: "invalid-frontmatter" });
	});

	it("reads the label alone (marker) or the whole node as a replace at that scope takes it (markerAndContent)", () => {
		expect(readTarget(NOTE, "heading", "", ["Plan", "Next steps"], "marker")).toEqual({
			kind: "text",
			text: "Next steps",
		});
		expect(readTarget(NOTE, "heading", "", ["Plan"], "markerAndContent")).toEqual({
			kind: "text",
			text: "# Plan\nintro\n## Next steps\n- one\n",
		});
		expect(readTarget(NOTE, "heading", "", ["Plan", "Next steps"], "markerAndContent")).toEqual({
			kind: "text",
			text: "# Next steps\n- one\n",
		});
		expect(readTarget(NOTE, "block", "b1", undefined, "marker")).toEqual({ kind: "text", text: "b1" });
		expect(readTarget(NOTE, "block", "b1", undefined, "markerAndContent")).toEqual({
			kind: "text",
			text: "text ^b1\n",
		});
		expect(readTarget(NOTE, "frontmatter", "list", undefined, "markerAndContent")).toEqual({
			kind: "json",
			value: { list: [1, 2] },
		});
		expect(readTarget(NOTE, "frontmatter", "list", undefined, "marker")).toEqual({ kind: "json", value: "list" });
	});

	it("round-trips: a markerAndContent read replaced at that scope leaves the note as it was", () => {
		const note = "# Alpha\n\ntext\n\n## Sub\n\nsub text\n\n### Deep\n\ndeep\n\n# Beta\n";
		const read = readTarget(note, "heading", "", ["Alpha", "Sub"], "markerAndContent");
		expect(read).toEqual({ kind: "text", text: "# Sub\n\nsub text\n\n## Deep\n\ndeep\n" });
		const replaced = applyPatch(
			note,
			{
				operation: "replace",
				targetType: "heading",
				target: "Alpha::Sub",
				headingPath: ["Alpha", "Sub"],
				relativeHeadings: true,
				scope: "markerAndContent",
			},
			read.kind === "text" ? read.text : "",
		);
		expect(replaced).toEqual({ ok: true, content: note });
	});
});
