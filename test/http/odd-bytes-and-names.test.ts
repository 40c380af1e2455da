/**
 * Notes at the edges of what a file system allows, on the headless host: bytes that are not UTF-8, names as long
 * as a file system takes, a symlink that loops, and trash names that clash. None may answer 500, and none may let
 * a write through that the exact bytes on disk would refuse.
 */
import { mkdir, rename, symlink } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { eachHeadless, type Harness } from "../helpers/headless-harness";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { allFiles, readVaultFile, sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness), {}, { noServerErrors: true });

describe("a note whose bytes are not UTF-8", () => {
	// "café" in Latin-1: E9 is not valid UTF-8 on its own.
	const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);

	it("is refused with 409 note-not-utf8 on read, and listed by name without a revision", async () => {
		await writeVaultFile(h.dir, "Old.md", LATIN1);
		const read = await h.api("/vault/Old.md");
		expect(read.status, read.text).toBe(409);
		expect(read.json()).toMatchObject({ type: "/problems/note-not-utf8", path: "Old.md" });
		const listing = await h.api("/vault/", { headers: { Accept: "application/json" } });
		const entry = listing
			.json<{ entries: { name: string; revision?: string; unreadable?: string }[] }>()
			.entries.find((e) => e.name === "Old.md");
		expect(entry?.revision).toBeUndefined();
		expect(entry?.unreadable).toMatch(/not valid UTF-8/);
	});

	it("is never overwritten by a token made from its text with replacement characters (an outside edit E9→E8 is kept)", async () => {
		await writeVaultFile(h.dir, "Old.md", LATIN1);
		// What the old code served: the bytes decoded with U+FFFD, hashed. E8 decodes to the same text.
		const lossyToken = sha256Token(LATIN1.toString("utf8"));
		const edited = Buffer.from([0x63, 0x61, 0x66, 0xe8, 0x0a]);
		await writeVaultFile(h.dir, "Old.md", edited);
		const put = await h.api("/vault/Old.md", {
			method: "PUT",
			body: "agent\n",
			headers: { "If-Match": `"${lossyToken}"` },
		});
		expect(put.status, put.text).toBe(409);
		expect(await readVaultFile(h.dir, "Old.md")).toEqual(edited);
		const del = await h.api("/vault/Old.md", { method: "DELETE", headers: { "If-Match": `"${lossyToken}"` } });
		expect(del.status).toBe(409);
		expect(await readVaultFile(h.dir, "Old.md")).toEqual(edited);
	});

	it("keeps a valid UTF-8 note's token the hash of its exact bytes, BOM included", async () => {
		const bytes = Buffer.from("\ufeff# BOM\r\nline", "utf8");
		await writeVaultFile(h.dir, "Bom.md", bytes);
		expect((await h.api("/vault/Bom.md")).headers.etag).toBe(`"${sha256Token(bytes)}"`);
	});
});

describe("long names", () => {
	/** A name of exactly `bytes` UTF-8 bytes, ending in .md, with multi-byte characters in it. */
	const nameOf = (bytes: number) => {
		let stem = "";
		while (Buffer.byteLength(stem + "é") <= bytes - 3) stem += "é";
		while (Buffer.byteLength(stem) < bytes - 3) stem += "a";
		return stem + ".md";
	};

	it.each([215, 224, 234, 240, 255])(
		"a stale PUT to a note whose name is %i bytes keeps its body as a .bak",
		async (bytes) => {
			const name = nameOf(bytes);
			expect(Buffer.byteLength(name)).toBe(bytes);
			const created = await h.api(`/vault/${encodeURIComponent(name)}`, { method: "PUT", body: "first\n" });
			expect(created.status, created.text).toBe(204);
			await writeVaultFile(h.dir, name, "edited by the person\n");
			const stale = await h.api(`/vault/${encodeURIComponent(name)}`, {
				method: "PUT",
				body: "the agent's\n",
				headers: { "If-Match": created.headers.etag as string },
			});
			expect(stale.status, stale.text).toBe(412);
			const { backupPath } = stale.json<{ backupPath: string | null }>();
			expect(backupPath).not.toBeNull();
			expect(Buffer.byteLength(backupPath!)).toBeLessThanOrEqual(255);
			expect((await readVaultFile(h.dir, backupPath!)).toString()).toBe("the agent's\n");
			// An update with the current token works too (its temp file fits the name limit).
			const current = (await h.api(`/vault/${encodeURIComponent(name)}`)).headers.etag as string;
			expect(
				(
					await h.api(`/vault/${encodeURIComponent(name)}`, {
						method: "PUT",
						body: "updated\n",
						headers: { "If-Match": current },
					})
				).status,
			).toBe(204);
		},
	);

	it("gives two long names that share their start different .bak names", async () => {
		const shared = "x".repeat(230);
		const paths = [`${shared}-one.md`, `${shared}-two.md`];
		const backups: string[] = [];
		for (const path of paths) {
			const created = await h.api(`/vault/${path}`, { method: "PUT", body: "a\n" });
			await writeVaultFile(h.dir, path, "b\n");
			const stale = await h.api(`/vault/${path}`, {
				method: "PUT",
				body: `agent ${path.slice(-6)}\n`,
				headers: { "If-Match": created.headers.etag as string },
			});
			backups.push(stale.json<{ backupPath: string }>().backupPath);
		}
		expect(backups[0]).not.toBe(backups[1]);
	});
});

describe("a symbolic link that loops", () => {
	it("is a 400 for reads and writes, never a 500", async () => {
		await symlink("loop.md", join(h.dir, "loop.md"));
		const read = await h.api("/vault/loop.md");
		expect(read.status, read.text).toBe(400);
		expect(read.json<{ detail: string }>().detail).toMatch(/leads back to itself/);
		const write = await h.api("/vault/loop.md", { method: "PUT", body: "x\n" });
		expect(write.status, write.text).toBe(400);
	});
});

describe("trash names", () => {
	it("never clash: a note deleted where a deleted note's name is now a folder can still be deleted", async () => {
		const put = (path: string, body: string) => h.api(`/vault/${path}`, { method: "PUT", body });
		const del = async (path: string) =>
			h.api(`/vault/${path}`, {
				method: "DELETE",
				headers: { "If-Match": (await h.api(`/vault/${path}`)).headers.etag as string },
			});
		expect((await put("a.md", "note\n")).status).toBe(204);
		expect((await del("a.md")).status).toBe(204);
		expect((await put("a.md/child.md", "child\n")).status).toBe(204);
		const deleted = await del("a.md/child.md");
		expect(deleted.status, deleted.text).toBe(204);
		const trashed = await allFiles(join(h.dir, ".trash"));
		expect(trashed).toHaveLength(2);
		expect(await visibleFiles(h.dir)).toEqual([]);
	});
});

describe("a note renamed away on disk", () => {
	it("is not found by its old name, and a folder in its place is not a note", async () => {
		await writeVaultFile(h.dir, "Moved.md", "x\n");
		await mkdir(join(h.dir, "Elsewhere"));
		await rename(join(h.dir, "Moved.md"), join(h.dir, "Elsewhere/Moved.md"));
		expect((await h.api("/vault/Moved.md")).status).toBe(404);
	});
});
