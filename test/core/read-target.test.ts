import { describe, expect, it } from "vitest";
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
		expect(readTarget("# A\n# A\n", "heading", "", ["A"])).toMatchObject({ kind: "unreadable" });
		expect(readTarget("---\n[1\n---\n", "frontmatter", "a")).toMatchObject({ kind: "invalid-frontmatter" });
	});
});
