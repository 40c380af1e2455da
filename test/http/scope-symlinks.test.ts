/**
 * A key's globs match the path a request names. On the headless host a symbolic link inside the folder is followed,
 * so a link in a folder a key may see, to a note or folder it may not, would reach the hidden note under the link's
 * name: for a key with lists a path that goes through a symlink is not there (listings and search leave symlinks out
 * already), and nothing is changed through one. A key without lists still follows it.
 */
import { mkdtemp, rm, symlink } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import type { AgentKey } from "../../src/settings";
import { writeVaultFile } from "../helpers/vault-files";
import { connect } from "../mcp/mcp-client";
import { STACKS, TWO_KEYS, type Stack } from "./stacks";

const KEY = "narrow-key-0123456789abcdef0123456789abcdef";
const NARROW: AgentKey = { name: "narrow", key: KEY, created: "2026-01-01", read: ["Public/**"], write: ["Public/**"] };
const auth = { Authorization: `Bearer ${KEY}` };
const SECRET = "SECRET-MARKER\n";
const ifMatch = { "If-Match": `"${revisionOf(SECRET)}"` };

describe("a scoped key and symbolic links inside the folder (node filesystem)", () => {
	let dir: string;
	let s: Stack;
	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-scope-links-"));
		await writeVaultFile(dir, "Secret/s.md", SECRET);
		await writeVaultFile(dir, "Public/p.md", "p\n");
		await symlink(join(dir, "Secret/s.md"), join(dir, "Public/link.md"));
		await symlink(join(dir, "Secret"), join(dir, "Public/dir"));
		s = await STACKS["node filesystem"](dir, { settings: { keys: [...TWO_KEYS, NARROW] } });
	});
	afterAll(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	it("reads nothing through a link: 404, as for a note that is not there", async () => {
		for (const path of [
			"/vault/Public/link.md",
			"/vault/Public/dir/s.md",
			"/vault/Public/dir/",
			"/history/Public/dir/s.md",
		]) {
			const answer = await s.api(path, { headers: auth });
			expect(answer.status, `${path}: ${answer.text}`).toBe(404);
			expect(answer.text).not.toContain("SECRET-MARKER");
		}
		const changes = await s.api(`/changes/Public/link.md?since=${revisionOf(SECRET)}`, { headers: auth });
		expect(changes.status, changes.text).toBe(404);
		const client = await connect(s.port, KEY);
		try {
			const read = await client.tool("read_note", { path: "Public/dir/s.md" });
			expect(read.isError).toBe(true);
			expect(read.text).not.toContain("SECRET-MARKER");
		} finally {
			await client.close();
		}
	});

	it("changes nothing through a link: 403 scope-forbidden, and MOVE or COPY of one is 404", async () => {
		for (const [method, path, headers] of [
			["PUT", "/vault/Public/dir/s.md", ifMatch],
			["POST", "/vault/Public/link.md", {}],
			["DELETE", "/vault/Public/dir/s.md", ifMatch],
			["PUT", "/vault/Public/dir/new.md", {}],
			["MOVE", "/vault/Public/p.md", { Destination: "Public/dir/p.md", "If-Match": `"${revisionOf("p\n")}"` }],
			["COPY", "/vault/Public/p.md", { Destination: "Public/dir/p.md" }],
		] as const) {
			const answer = await s.api(path, {
				method,
				headers: { ...auth, ...headers },
				...(method === "PUT" || method === "POST" ? { body: "x\n" } : {}),
			});
			expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
			expect(answer.json()).toMatchObject({ type: "/problems/scope-forbidden" });
		}
		for (const method of ["MOVE", "COPY"])
			expect(
				(await s.api("/vault/Public/link.md", { method, headers: { ...auth, ...ifMatch, Destination: "Public/x.md" } }))
					.status,
			).toBe(404);
		expect(await s.file("Secret/s.md")).toBe(SECRET);
		expect(await s.file("Secret/new.md")).toBeNull();
		expect(await s.file("Secret/p.md")).toBeNull();
	});

	it("still follows a link for a key without lists", async () => {
		expect((await s.api("/vault/Public/link.md")).text).toBe(SECRET);
	});
});
