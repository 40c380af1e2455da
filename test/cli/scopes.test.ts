/**
 * The Obsidian CLI and key scopes: the CLI has no keys, but `agent=` naming a key holds the call to that key's scope
 * (service/notes/agent-notes.ts `scopeOfName`), with the same refusals as REST and MCP; a name that is no key's is not held.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentKey } from "../../src/settings";
import { startCli, type CliHarness } from "./cli-harness";

const WALKER: AgentKey = {
	name: "walker",
	key: "w".repeat(43),
	created: "2026-01-01",
	read: ["Public/**"],
	write: ["Public/open.md"],
};

describe("CLI commands for an agent named like a scoped key", () => {
	let h: CliHarness;
	beforeEach(async () => {
		h = await startCli({
			keys: [WALKER, { name: "broken", key: "b".repeat(43), created: "2026-01-01", write: "Public/**" }],
		});
		await h.app.vault.createFolder("Public");
		await h.app.vault.createFolder("Secret");
		await h.create("Public/ro.md", "read only\n");
		await h.create("Secret/hidden.md", "SECRET-MARKER\n");
	});
	afterEach(async () => {
		await h.close();
	});

	it("cannot read a hidden note, nor change a read-only one; nothing is written", async () => {
		const read = await h.cli("read", { path: "Secret/hidden.md", agent: "walker" });
		expect(read).toMatchObject({ ok: false, error: "note-not-found" });
		expect(JSON.stringify(read)).not.toContain("SECRET-MARKER");
		const append = await h.cli("append", { path: "Public/ro.md", content: "more", agent: "walker" });
		expect(append).toMatchObject({
			ok: false,
			error: "scope-forbidden",
			key: "walker",
			scope: "read-only",
			rule: { list: "read", glob: "Public/**" },
		});
		const write = await h.cli("write", { path: "Secret/new.md", content: "x", agent: "walker" });
		expect(write).toMatchObject({ ok: false, error: "scope-forbidden", scope: "outside-read" });
		expect(await h.app.vault.adapter.read("Public/ro.md")).toBe("read only\n");
		expect(await h.app.vault.adapter.exists("Secret/new.md")).toBe(false);
	});

	it("refuses every call naming a key whose lists are malformed", async () => {
		expect(await h.cli("read", { path: "Public/ro.md", agent: "broken" })).toMatchObject({
			ok: false,
			error: "scope-forbidden",
			scope: "key-not-served",
		});
	});

	it("holds a name that is no key's to nothing (the CLI is the person's own tool)", async () => {
		expect(await h.cli("read", { path: "Secret/hidden.md", agent: "someone" })).toMatchObject({ ok: true });
	});
});
