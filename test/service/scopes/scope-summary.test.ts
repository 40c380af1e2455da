/** What a key's lists mean in a vault (service/scopes/scope-summary.ts, AgentNotes.scopeSummary), counted in slices. */
import { describe, expect, it } from "vitest";
import { nodeTimers } from "../../../src/headless/node-timers";
import type { Access } from "../../../src/core/key-scope";
import { countAccess } from "../../../src/service/scopes/scope-summary";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";

describe("countAccess", () => {
	it("counts what each note's access allows: seen, changed, only proposed", async () => {
		const access: Record<string, Access> = { a: "write", b: "read", c: "propose", d: "hidden" };
		expect(
			await countAccess(
				Object.keys(access),
				(path) => access[path]!,
				async () => undefined,
			),
		).toEqual({ notes: 4, see: 3, change: 1, propose: 1 });
	});

	it("gives the host turns while it counts a big vault, and counts the same as at once", async () => {
		let turns = 0;
		const paths = Array.from({ length: 100_000 }, (_, i) => `n${i}.md`);
		const access = (path: string): Access => (path.endsWith("0.md") ? "write" : "read");
		// Slices of no time at all: a turn at every step (one per 256 notes), without timing anything.
		const counts = await countAccess(paths, access, async () => void turns++, 0);
		expect(counts).toEqual({ notes: 100_000, see: 100_000, change: 10_000, propose: 0 });
		expect(turns).toBe(Math.floor(100_000 / 256));
	});
});

describe("AgentNotes.scopeSummary", () => {
	async function notesWith(files: Record<string, string>) {
		const settings = structuredClone(DEFAULT_SETTINGS);
		const guard = await openRevisionGuard({
			gateway: new MemoryGateway(files),
			storage: new MemoryStorage(),
			settings: () => settings,
			configDir: ".obsidian",
			timers: nodeTimers,
		});
		return guard.notes;
	}

	it("counts the served notes a key can see, change and propose to, leaving .bak notes out", async () => {
		const notes = await notesWith({
			"P/a.md": "",
			"P/b.md": "",
			"D/c.md": "",
			"S/d.md": "",
			"P/a.20260101-000000.bak.md": "",
			".obsidian/x.md": "",
		});
		const key = {
			name: "k",
			key: "k".repeat(43),
			created: "",
			read: ["P/**", "D/**"],
			write: ["P/a.md", "D/**"],
			propose: ["D/**"],
		};
		expect(await notes.scopeSummary(key)).toEqual({ kind: "counted", notes: 4, see: 3, change: 1, propose: 1 });
		expect(await notes.scopeSummary({ name: "all", key: "a".repeat(43), created: "" })).toEqual({
			kind: "counted",
			notes: 4,
			see: 4,
			change: 4,
			propose: 0,
		});
	});

	it("says why a key with malformed lists is not served", async () => {
		const notes = await notesWith({ "a.md": "" });
		expect(await notes.scopeSummary({ name: "k", key: "k".repeat(43), created: "", write: "P/**" })).toMatchObject({
			kind: "not-served",
			problem: { key: "k", field: "write" },
		});
	});
});
