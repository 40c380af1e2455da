import { describe, expect, it } from "vitest";
import { documentMap, flatDocumentMap } from "../../../src/core/markdown/document-map";

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

	it("keeps a heading named __proto__ as an ordinary key, and lists a repeated sibling once", () => {
		const map = documentMap("# __proto__\n## a\n# x\n## b\n## b\n");
		expect(JSON.stringify(map.headings)).toBe('{"__proto__":{"a":{}},"x":{"b":{}}}');
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
			headings: ["Heading 1", "Heading 1::Sub 1:1", "Heading 1::Sub 1:1::Deep", "Heading 1::Sub 1:2", "Heading 2", "Heading 2::Sub 1:1"],
			blocks: ["intro", "item-1"],
			frontmatterFields: ["alpha", "beta"],
		});
	});
});
