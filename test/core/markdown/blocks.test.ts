import { describe, expect, it } from "vitest";
import { findBlocks } from "../../../src/core/markdown/blocks";
import { parseMarkdown } from "../../../src/core/markdown/structure";

/** Each block as id → its text without the id. */
function blocks(content: string): [string, string][] {
	return findBlocks(parseMarkdown(content)).map((block) => [block.id, content.slice(block.bodyStart, block.bodyEnd)]);
}

describe("findBlocks", () => {
	it("takes an id at the end of a line as ending its paragraph", () => {
		expect(blocks("# H\nfirst line\nsecond line ^para\n\nother\n")).toEqual([["para", "first line\nsecond line"]]);
	});

	it("takes an id at the end of a list item as naming that item only", () => {
		expect(blocks("- one\n- two ^two\n- three\n")).toEqual([["two", "- two"]]);
		expect(blocks("- one\n  more of one ^one\n")).toEqual([["one", "- one\n  more of one"]]);
	});

	it("takes an id alone on its line as naming the block above it, blank lines between allowed", () => {
		expect(blocks("| a | b |\n| - | - |\n| 1 | 2 |\n\n^table\n")).toEqual([
			["table", "| a | b |\n| - | - |\n| 1 | 2 |"],
		]);
		expect(blocks("- a\n- b\n^list\n")).toEqual([["list", "- a\n- b"]]);
		expect(blocks("intro\n\nMore text.\n\n^para\n")).toEqual([["para", "More text."]]);
	});

	it("gives an id with nothing above it an empty block", () => {
		expect(blocks("# H\n^lonely\n")).toEqual([["lonely", ""]]);
	});

	it("ignores ids in code, in frontmatter, on headings, and carets that are not ids", () => {
		expect(
			blocks(
				"---\nnote: x ^fm\n---\n```\ncode ^code\n```\n## Heading ^head\n2^10 is 1024\nsquare is x^2\nx ^not_an_id\n",
			),
		).toEqual([]);
	});

	it("lists a repeated id each time", () => {
		expect(blocks("a ^same\n\nb ^same\n").map(([id]) => id)).toEqual(["same", "same"]);
	});

	it("keeps CRLF line breaks out of the block's text", () => {
		expect(blocks("one\r\ntwo ^x\r\n")).toEqual([["x", "one\r\ntwo"]]);
	});

	it("finds the ids of a note made of hundreds of thousands of them in one pass (no line is walked twice)", () => {
		const count = 300_000;
		const paragraph = Array.from({ length: count }, (_, index) => `line ^id${index}`).join("\n");
		const found = findBlocks(parseMarkdown(paragraph));
		expect(found).toHaveLength(count);
		expect(found[count - 1]!.bodyStart).toBe(0);
		const lone = findBlocks(parseMarkdown("text\n" + "^x\n".repeat(count)));
		expect(lone).toHaveLength(count);
	});
});
