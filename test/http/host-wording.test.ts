/** Answers speak of what the host serving them has: Obsidian's settings, or the headless host's command line. */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STACKS, type Stack } from "./stacks";

const KEY_SOURCE: Record<keyof typeof STACKS, RegExp> = {
	"node filesystem": /printed when it started.*keys add/,
	obsidian: /Settings → Revision Guard → Agent keys/,
};

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("wording on the %s host", (name) => {
	let dir: string;
	let s: Stack;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-wording-"));
		s = await STACKS[name](dir);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	it("says where a key comes from on this host", async () => {
		const res = await s.api("/vault/", { headers: { Authorization: "Bearer not-a-key-of-this-host-0123456789" } });
		expect(res.status).toBe(401);
		const detail = res.json<{ detail: string }>().detail;
		expect(detail).toMatch(KEY_SOURCE[name]);
		if (name === "node filesystem") expect(detail).not.toContain("settings");
	});

	it("never sends an agent to Obsidian to tidy backups", async () => {
		await s.edit("Note.md", "x\n");
		const res = await s.api("/vault/Note.20260101-000000.bak.md", { method: "PUT", body: "y\n" });
		expect(res.status).toBe(403);
		expect(res.json<{ detail: string }>().detail).not.toContain("Obsidian");
	});
});
