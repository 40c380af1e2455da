/** Without a base, regions that do not add back up to both versions fall back to one whole-note conflict. */
import { describe, expect, it, vi } from "vitest";
import { buildMerge } from "../../../src/ui/merge/blocks";

const engine = vi.hoisted(() => ({ dropLastRegion: false }));

vi.mock("../../../src/core/merge", async (importOriginal) => {
	const original = await importOriginal<typeof import("../../../src/core/merge")>();
	return {
		...original,
		mergeThreeWay: (...args: Parameters<typeof original.mergeThreeWay>) => {
			const result = original.mergeThreeWay(...args);
			return engine.dropLastRegion ? { ...result, regions: result.regions.slice(0, -1) } : result;
		},
	};
});

describe("two-way merge check", () => {
	it("trusts regions that rebuild both versions", () => {
		engine.dropLastRegion = false;
		const { blocks } = buildMerge(null, "a\nb\nc\n", "a\nB\nc\n");
		expect(blocks.map((block) => block.kind)).toEqual(["stable", "conflict", "stable"]);
	});

	it("shows the whole note as one conflict when they do not", () => {
		engine.dropLastRegion = true;
		const { blocks } = buildMerge(null, "\ufeffa\nb\nc\n", "a\nB\nc\n");
		expect(blocks).toEqual([
			expect.objectContaining({ kind: "stable", auto: "\ufeff", hidden: true }),
			expect.objectContaining({
				kind: "conflict",
				reason: "no-base",
				base: "",
				mine: "a\nb\nc\n",
				theirs: "a\nB\nc\n",
			}),
		]);
	});
});
