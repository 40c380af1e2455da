import { describe, expect, it } from "vitest";
import { chunkYaml } from "../../../src/core/merge/yaml-chunks";
import { neighboursChanged } from "../../../src/core/merge/yaml-neighbours";

function neighbours(base: string, mine: string, theirs: string): boolean {
	const [b, m, t] = [chunkYaml(base), chunkYaml(mine), chunkYaml(theirs)];
	if (!b || !m || !t) throw new Error("test YAML must parse");
	return neighboursChanged(b, m, t);
}

describe("neighboursChanged: git's touching rule, one key at a time", () => {
	const base = "a: 1\nb: 1\nc: 1\n";

	it("sees changes to neighbouring keys, and a key added next to a changed one", () => {
		expect(neighbours(base, "a: 2\nb: 1\nc: 1\n", "a: 1\nb: 2\nc: 1\n")).toBe(true);
		expect(neighbours(base, "a: 1\nnew: x\nb: 1\nc: 1\n", "a: 1\nb: 2\nc: 1\n")).toBe(true);
		expect(neighbours(base, "a: 1\nnew: x\nb: 1\nc: 1\n", "a: 2\nb: 1\nc: 1\n")).toBe(true);
		expect(neighbours(base, "b: 1\nc: 1\n", "a: 1\nb: 2\nc: 1\n")).toBe(true);
	});

	it("sees two different keys added at one place", () => {
		expect(neighbours(base, "a: 1\nx: 1\nb: 1\nc: 1\n", "a: 1\ny: 1\nb: 1\nc: 1\n")).toBe(true);
	});

	it("lets changes with an untouched key between them, or keys both sides changed alike, pass", () => {
		expect(neighbours(base, "a: 2\nb: 1\nc: 1\n", "a: 1\nb: 1\nc: 2\n")).toBe(false);
		expect(neighbours(base, "a: 2\nb: 2\nc: 1\n", "a: 2\nb: 1\nc: 1\n")).toBe(false);
		expect(neighbours(base, "a: 1\nx: 1\nb: 1\nc: 1\n", "a: 1\nx: 1\nb: 1\nc: 1\n")).toBe(false);
	});

	it("counts comments above the first key and below the last as units", () => {
		expect(neighbours("# top\na: 1\nb: 1\n", "# top!\na: 1\nb: 1\n", "# top\na: 2\nb: 1\n")).toBe(true);
		expect(neighbours("# top\na: 1\nb: 1\n", "# top!\na: 1\nb: 1\n", "# top\na: 1\nb: 2\n")).toBe(false);
	});
});
