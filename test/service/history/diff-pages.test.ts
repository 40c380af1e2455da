import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../../src/core/diff/unified";
import { DiffPages } from "../../../src/service/history/diff-pages";

const text = (tag: string, lines: number) => Array.from({ length: lines }, (_, i) => `${tag} ${i}\n`).join("");
const side = (revision: string, content: string) => ({ revision, content });

describe("DiffPages", () => {
	it("pages through one diff, computing it once, and the pages join to the whole diff", async () => {
		const diffs = new DiffPages(async () => undefined);
		const from = side("r1", text("old", 2_000));
		const to = side("r2", text("new", 2_000));
		let joined = "";
		let offset: number | null = 0;
		while (offset !== null) {
			const page = await diffs.page({ path: "a.md", from, to, offset, maxBytes: 4_096 });
			joined += page.text;
			offset = page.nextOffset;
		}
		expect(joined).toBe(unifiedDiff(from.content, to.content, { fromLabel: "a/a.md@r1", toLabel: "b/a.md" }));
		expect(diffs.computed).toBe(1);
	});

	it("computes at most two diffs at once; the others wait their turn", async () => {
		let release!: () => void;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const diffs = new DiffPages(async () => {
			await gate;
		}, 0);
		const pages = [1, 2, 3].map((n) =>
			diffs.page({
				path: `${n}.md`,
				from: side(`a${n}`, text("x", 100)),
				to: side(`b${n}`, text("y", 100)),
				offset: 0,
				maxBytes: 1_024,
			}),
		);
		// Every diff stops at its first turn for the host: only two have started.
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(diffs.computed).toBe(2);
		release();
		await Promise.all(pages);
		expect(diffs.computed).toBe(3);
	});

	it("does not keep a diff that failed, so the next request tries again", async () => {
		let fail = true;
		const diffs = new DiffPages(async () => {
			if (fail) throw new Error("host gone");
		}, 0);
		const request = {
			path: "a.md",
			from: side("r1", text("old", 100)),
			to: side("r2", text("new", 100)),
			offset: 0,
			maxBytes: 1_024,
		};
		await expect(diffs.page(request)).rejects.toThrow("host gone");
		fail = false;
		expect((await diffs.page(request)).text).toContain("--- a/a.md@r1");
	});
});
