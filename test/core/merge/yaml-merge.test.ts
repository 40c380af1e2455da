import { describe, expect, it } from "vitest";
import { mergeYaml } from "../../../src/core/merge/yaml-merge";

const clean = (text: string): unknown => expect.objectContaining({ kind: "clean", text }) as unknown;

describe("mergeYaml", () => {
	it("takes changes to different keys from each side, keeping every other byte", () => {
		const base = "# meta\ntitle: Old   # keep this spacing\nstatus: draft\nn: 1\n";
		const mine = "# meta\ntitle: New   # keep this spacing\nstatus: draft\nn: 1\n";
		const theirs = "# meta\ntitle: Old   # keep this spacing\nstatus: done\nn: 1\n";
		expect(mergeYaml(base, mine, theirs)).toEqual(
			clean("# meta\ntitle: New   # keep this spacing\nstatus: done\nn: 1\n"),
		);
	});

	it("conflicts when both sides change one key differently", () => {
		expect(mergeYaml("a: 1\nb: 1\n", "a: 2\nb: 1\n", "a: 3\nb: 1\n")).toEqual({ kind: "conflict", keys: ["a"] });
	});

	it("accepts the same change on both sides", () => {
		expect(mergeYaml("a: 1\nb: 1\n", "a: 2\nb: 1\n", "a: 2\nb: 2\n")).toEqual(clean("a: 2\nb: 2\n"));
	});

	it("adds keys theirs added next to their neighbour, and removes keys theirs removed", () => {
		expect(mergeYaml("a: 1\nb: 1\nc: 1\n", "a: 2\nb: 1\nc: 1\n", "a: 1\nb: 1\nnew: x\nc: 1\n")).toEqual(
			clean("a: 2\nb: 1\nnew: x\nc: 1\n"),
		);
		expect(mergeYaml("a: 1\nb: 1\n", "a: 1\nb: 1\n", "new: x\na: 1\nb: 1\n")).toEqual(clean("new: x\na: 1\nb: 1\n"));
		expect(mergeYaml("a: 1\nb: 1\nc: 1\n", "a: 2\nb: 1\nc: 1\n", "a: 1\nc: 1\n")).toEqual(clean("a: 2\nc: 1\n"));
	});

	it("conflicts when one side removes a key the other changed", () => {
		expect(mergeYaml("a: 1\nb: 1\n", "b: 1\n", "a: 2\nb: 1\n")).toEqual({ kind: "conflict", keys: ["a"] });
	});

	it("merges scalar lists as sets: additions from both, removals from either", () => {
		const base = "tags:\n  - a\n  - b\n  - c\n";
		const mine = "tags:\n  - a\n  - c\n  - mine\n";
		const theirs = "tags:\n  - a\n  - b\n  - theirs\n";
		expect(mergeYaml(base, mine, theirs)).toEqual(clean("tags:\n  - a\n  - mine\n  - theirs\n"));
	});

	it("keeps a flow list flow and its quoting", () => {
		expect(mergeYaml("aliases: [x, 'y']\n", "aliases: [x, 'y', z]\n", "aliases: ['y', w]\n")).toEqual(
			clean("aliases: ['y', z, w]\n"),
		);
	});

	it("does not add an item twice when both sides added it", () => {
		expect(mergeYaml("tags: [a]\n", "tags: [a, b, c]\n", "tags: [a, c, b, d]\n")).toEqual(
			clean("tags: [a, b, c, d]\n"),
		);
	});

	it("unions lists that both sides created", () => {
		expect(mergeYaml("a: 1\n", "a: 1\ntags: [x]\n", "a: 1\ntags: [y]\n")).toEqual(clean("a: 1\ntags: [x, y]\n"));
	});

	it("keeps the comment lines above a combined list", () => {
		expect(mergeYaml("# tags\ntags: [a]\n", "# tags\ntags: [a, b]\n", "# tags\ntags: [a, c]\n")).toEqual(
			clean("# tags\ntags: [a, b, c]\n"),
		);
	});

	it("prints a combined list with the note's CRLF line endings", () => {
		expect(mergeYaml("t:\r\n  - a\r\n", "t:\r\n  - a\r\n  - b\r\n", "t:\r\n  - a\r\n  - c\r\n")).toEqual(
			clean("t:\r\n  - a\r\n  - b\r\n  - c\r\n"),
		);
	});

	it("does not combine lists of mappings, nested mappings or a list with a scalar", () => {
		expect(mergeYaml("l:\n  - {a: 1}\n", "l:\n  - {a: 1}\n  - {b: 1}\n", "l:\n  - {a: 1}\n  - {c: 1}\n").kind).toBe(
			"conflict",
		);
		expect(mergeYaml("m:\n  a: 1\n  b: 1\n", "m:\n  a: 2\n  b: 1\n", "m:\n  a: 1\n  b: 2\n").kind).toBe("conflict");
		expect(mergeYaml("t: [a]\n", "t: [a, b]\n", "t: c\n").kind).toBe("conflict");
	});

	it("merges comment changes above the first key or below the last like one more key", () => {
		expect(mergeYaml("# top\na: 1\n", "# top!\na: 1\n", "# top\na: 2\n")).toEqual(clean("# top!\na: 2\n"));
		expect(mergeYaml("a: 1\n# end\n", "a: 1\n# mine\n", "a: 1\n# theirs\n")).toEqual({
			kind: "conflict",
			keys: ["(comments below the last key)"],
		});
	});

	it("says when it combined lists, and when one side's change sits next to the other's", () => {
		expect(mergeYaml("t: [a]\nx: 1\n", "t: [a, b]\nx: 1\n", "t: [a, c]\nx: 2\n")).toEqual({
			kind: "clean",
			text: "t: [a, b, c]\nx: 2\n",
			listsCombined: true,
			neighbours: false,
		});
		expect(mergeYaml("a: 1\nb: 1\n", "a: 2\nb: 1\n", "a: 1\nb: 2\n")).toMatchObject({
			listsCombined: false,
			neighbours: true,
		});
		expect(mergeYaml("a: 1\nb: 1\nc: 1\n", "a: 2\nb: 1\nc: 1\n", "a: 1\nb: 1\nc: 2\n")).toMatchObject({
			neighbours: false,
		});
	});

	it("reports unparseable input so the caller can fall back", () => {
		expect(mergeYaml("a: 1\n", "a: [\n", "a: 2\n")).toEqual({ kind: "unparseable" });
		expect(mergeYaml("a: 1\n", "a: 1\n", "- x\n")).toEqual({ kind: "unparseable" });
	});
});
