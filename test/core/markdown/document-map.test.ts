import { describe, expect, it } from "vitest";
import { occurrenceKey } from "../../../src/core/markdown/occurrences";
import {
	documentMap,
	FLAT_HEADINGS_MIN_BUDGET,
	flatDocumentMap,
	noteOutline,
} from "../../../src/core/markdown/document-map";

const NOTE = [
	"---",
	"alpha: 1",
	"beta: test",
	"---",
	"# Heading 1",
	"text ^intro",
	"## Sub 1:1",
	"### Deep",
	"## Sub 1:2",
	"- item ^item-1",
	"```",
	"# not a heading ^notablock",
	"```",
	"# Heading 2",
	"## Sub 1:1",
	"",
].join("\n");

describe("documentMap (format 2)", () => {
	it("nests headings as a tree, lists block ids outside code and the frontmatter keys", () => {
		expect(documentMap(NOTE)).toEqual({
			headings: { "Heading 1": { "Sub 1:1": { Deep: {} }, "Sub 1:2": {} }, "Heading 2": { "Sub 1:1": {} } },
			blocks: ["intro", "item-1"],
			frontmatterFields: ["alpha", "beta"],
		});
	});

	it("keeps a heading named __proto__ as an ordinary key, and gives a repeated sibling (or block id) a key of its own", () => {
		const map = documentMap("# __proto__\n## a\n# x\n## b\n## b\n## b\none ^i\n\ntwo ^i\n");
		expect(Object.keys(map.headings.x!)).toEqual(["b", occurrenceKey("b", 2), occurrenceKey("b", 3)]);
		expect(map.headings.__proto__).toEqual({ a: {} });
		expect(map.blocks).toEqual(["i", occurrenceKey("i", 2)]);
		expect(Object.getPrototypeOf(map.headings)).toBe(null);
	});

	it("gives an empty map for an empty note and no fields for frontmatter that cannot be read", () => {
		expect(documentMap("")).toEqual({ headings: {}, blocks: [], frontmatterFields: [] });
		expect(documentMap("---\n- a list\n---\n# A\n").frontmatterFields).toEqual([]);
	});
});

describe("flatDocumentMap (format 1)", () => {
	it("lists each heading path joined with ::, each once, in note order", () => {
		expect(flatDocumentMap(NOTE)).toEqual({
			headings: [
				"Heading 1",
				"Heading 1::Sub 1:1",
				"Heading 1::Sub 1:1::Deep",
				"Heading 1::Sub 1:2",
				"Heading 2",
				"Heading 2::Sub 1:1",
			],
			blocks: ["intro", "item-1"],
			frontmatterFields: ["alpha", "beta"],
		});
	});
});

describe("flatDocumentMap's bound", () => {
	// Each flat path repeats its enclosing headings: five 100 KB headings above 2,000 short ones made a 525 KB note's
	// list over a gigabyte (the answer failed with a 500 after a minute of work). It stops at the note's own size.
	it("stops the list at the note's size, says so, and never builds the oversized paths", () => {
		const long = (n: number) => `${n}`.padEnd(100_000, "x");
		let note = [1, 2, 3, 4, 5].map((level) => `${"#".repeat(level)} ${long(level)}\n`).join("");
		for (let index = 0; index < 2000; index++) note += `###### h${index}\n`;
		const map = flatDocumentMap(note);
		expect(map.headingsTruncated).toBe(true);
		expect(map.headings.slice(0, 2)).toEqual([long(1), `${long(1)}::${long(2)}`]);
		const bound = Math.max(note.length, FLAT_HEADINGS_MIN_BUDGET);
		expect(map.headings.join("").length).toBeLessThanOrEqual(bound);
		expect(JSON.stringify(map).length).toBeLessThan(bound + 100_000);
	});

	it("lists a repeated path once, without counting it against the bound again", () => {
		const note = "# A\n" + "## b\n".repeat(100_000) + "## c\n";
		expect(flatDocumentMap(note)).toEqual({ headings: ["A", "A::b", "A::c"], blocks: [], frontmatterFields: [] });
		expect(flatDocumentMap("# A::B\n# A\n## B\n").headings).toEqual(["A::B", "A"]);
	});
});

describe("noteOutline", () => {
	it("lists heading targets in note order, a repeat with its own key, and stops at its bounds, saying so", () => {
		expect(noteOutline("# A\n## B\n# A\n## B\nx ^i\n", 10, 1000)).toEqual({
			headings: [
				{ target: "A", level: 1 },
				{ target: "A::B", level: 2 },
				{ target: occurrenceKey("A", 2), level: 1 },
				{ target: `${occurrenceKey("A", 2)}::B`, level: 2 },
			],
			blocks: ["i"],
			frontmatterFields: [],
		});
		expect(noteOutline("# A\n# B\n# C\n", 2, 1000)).toMatchObject({
			headings: [{ target: "A" }, { target: "B" }],
			truncated: true,
		});
		const long = `# ${"x".repeat(600)}\n`.repeat(3);
		expect(noteOutline(long, 10, 1000)).toMatchObject({ truncated: true });
		expect(noteOutline(long, 10, 1000).headings).toHaveLength(1);
	});
});
