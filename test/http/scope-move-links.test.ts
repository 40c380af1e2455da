/**
 * A move inside Obsidian rewrites the links of every note that links to the moved one: a scoped key must not move a
 * note that notes it may not change (read-only or hidden) link to, or the move would change them, and name them. A
 * plain folder rewrites no links, so there the move goes ahead.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import type { AgentKey } from "../../src/settings";
import { writeVaultFile } from "../helpers/vault-files";
import { connect } from "../mcp/mcp-client";
import { STACKS, TWO_KEYS, type Stack } from "./stacks";

const KEY = "narrow-key-0123456789abcdef0123456789abcdef";
const NARROW: AgentKey = {
	name: "narrow",
	key: KEY,
	created: "2026-01-01",
	read: ["Public/**"],
	write: ["Public/Inbox/**"],
};
const auth = { Authorization: `Bearer ${KEY}` };
const MOVED = "# A\n";

for (const [name, start] of Object.entries(STACKS)) {
	describe(`a scoped key's move and the links to the note (${name})`, () => {
		let dir: string;
		let s: Stack;
		afterEach(async () => {
			await s.close();
			await rm(dir, { recursive: true, force: true });
		});

		async function open(notes: Record<string, string>): Promise<void> {
			dir = await mkdtemp(join(tmpdir(), "rg-move-links-"));
			for (const [path, content] of Object.entries({ "Public/Inbox/a.md": MOVED, ...notes }))
				await writeVaultFile(dir, path, content);
			s = await start(dir, { settings: { keys: [...TWO_KEYS, NARROW] } });
		}

		const move = () =>
			s.api("/vault/Public/Inbox/a.md", {
				method: "MOVE",
				headers: { ...auth, Destination: "Public/Inbox/b.md", "If-Match": `"${revisionOf(MOVED)}"` },
			});

		it("never rewrites a hidden or read-only note's links, nor names the hidden one", async () => {
			await open({ "Public/ro.md": "ro links [[a]]\n", "Secret/s.md": "secret links [[a]]\n" });
			const moved = await move();
			if (s.app === null) expect(moved.status, moved.text).toBe(204);
			else {
				expect(moved.status, moved.text).toBe(403);
				expect(moved.json()).toMatchObject({ type: "/problems/scope-forbidden", scope: "links-outside-write" });
				expect(moved.text).not.toContain("Secret");
				expect(await s.file("Public/Inbox/a.md")).toBe(MOVED);
			}
			expect(await s.file("Secret/s.md")).toBe("secret links [[a]]\n");
			expect(await s.file("Public/ro.md")).toBe("ro links [[a]]\n");
		});

		it("refuses over MCP too, when only a hidden note links to it", async () => {
			await open({ "Secret/s.md": "secret links [[a]]\n" });
			const client = await connect(s.port, KEY);
			try {
				expect((await client.tool("read_note", { path: "Public/Inbox/a.md" })).isError).toBe(false);
				const result = await client.tool("move_note", { path: "Public/Inbox/a.md", destination: "Public/Inbox/b.md" });
				if (s.app === null) expect(result.isError, result.text).toBe(false);
				else {
					expect(result.isError, result.text).toBe(true);
					expect(result.text).toContain("scope-forbidden");
					expect(result.text).not.toContain("Secret");
				}
			} finally {
				await client.close();
			}
			expect(await s.file("Secret/s.md")).toBe("secret links [[a]]\n");
		});

		it("never undoes another key's move when that would change a note it may not change, nor names that note", async () => {
			await open({ "Secret/s.md": "secret links [[a]]\n" });
			// A key without lists moves the note (inside Obsidian, rewriting the hidden note's link).
			const moved = await s.api("/vault/Public/Inbox/a.md", {
				method: "MOVE",
				headers: { Destination: "Public/Inbox/b.md", "If-Match": `"${revisionOf(MOVED)}"` },
			});
			expect(moved.status, moved.text).toBe(204);
			const rewrittenSecret = await s.file("Secret/s.md");
			const undone = await s.api("/history/Public/Inbox/b.md/revert", {
				method: "POST",
				headers: { ...auth, "If-Match": `"${revisionOf(MOVED)}"` },
			});
			expect(undone.text).not.toContain("Secret");
			expect(await s.file("Secret/s.md")).toBe(rewrittenSecret);
			if (s.app === null) expect(undone.status, undone.text).toBe(200);
			else {
				expect(undone.status, undone.text).toBe(403);
				expect(undone.json()).toMatchObject({ type: "/problems/scope-forbidden", scope: "links-outside-write" });
				expect(await s.file("Public/Inbox/b.md")).toBe(MOVED);
			}
		});

		it("moves a note only notes the key may change link to, and rewrites their links", async () => {
			await open({ "Public/Inbox/c.md": "links [[a]]\n" });
			const moved = await move();
			expect(moved.status, moved.text).toBe(204);
			expect(await s.file("Public/Inbox/c.md")).toBe(s.app === null ? "links [[a]]\n" : "links [[b]]\n");
		});
	});
}
