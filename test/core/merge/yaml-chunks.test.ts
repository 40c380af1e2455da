import { describe, expect, it } from "vitest";
import { chunkYaml, sameYaml } from "../../../src/core/merge/yaml-chunks";

describe("chunkYaml", () => {
	it("cuts a mapping into exact per-key chunks that join back to the source", () => {
		const source = "# about\n\ntitle: Hi # note\n# the tags\ntags:\n  - a\n  - b\nempty:\nlast: x\n# end\n";
		const chunked = chunkYaml(source);
		expect(chunked).not.toBeNull();
		expect(chunked?.header).toBe("# about\n\n");
		expect(chunked?.chunks.map((chunk) => [chunk.key, chunk.text, chunk.prefix])).toEqual([
			['"title"', "title: Hi # note\n", ""],
			['"tags"', "# the tags\ntags:\n  - a\n  - b\n", "# the tags\n"],
			['"empty"', "empty:\n", ""],
			['"last"', "last: x\n", ""],
		]);
		expect(chunked?.trailer).toBe("# end\n");
		expect(chunked!.header + chunked!.chunks.map((chunk) => chunk.text).join("") + chunked!.trailer).toBe(source);
	});

	it("handles CRLF and block scalars", () => {
		const source = "a: |\r\n  one\r\n  two\r\nb: 2\r\n";
		expect(chunkYaml(source)?.chunks.map((chunk) => chunk.text)).toEqual(["a: |\r\n  one\r\n  two\r\n", "b: 2\r\n"]);
	});

	it("treats an empty document as no keys", () => {
		expect(chunkYaml("")).toMatchObject({ chunks: [], trailer: "" });
		expect(chunkYaml("# just a comment\n")).toMatchObject({ chunks: [], trailer: "# just a comment\n" });
	});

	it.each([
		["invalid YAML", "a: [1, 2\n"],
		["duplicate keys", "a: 1\na: 2\n"],
		["a list", "- a\n- b\n"],
		["a scalar", "just text\n"],
		["a flow mapping", "{a: 1, b: 2}\n"],
		["a complex key", "? [a, b]\n: 1\n"],
	])("refuses %s", (_label, source) => {
		expect(chunkYaml(source)).toBeNull();
	});
});

describe("sameYaml", () => {
	it("ignores formatting the printer normalizes, but not data or comments", () => {
		expect(sameYaml("tags: [a,  b]\n", "tags: [a, b]\n")).toBe(true);
		expect(sameYaml("a: 1   # c\n", "a: 1 # c\n")).toBe(true);
		expect(sameYaml("a: 1\n", "a: 2\n")).toBe(false);
		expect(sameYaml("a: 1 # c\n", "a: 1 # d\n")).toBe(false);
		expect(sameYaml("a: [\n", "a: [\n")).toBe(true);
		expect(sameYaml("a: [\n", "a: []\n")).toBe(false);
	});
});
