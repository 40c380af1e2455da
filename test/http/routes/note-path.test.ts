import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { eachHeadless, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { allFiles, readVaultFile, visibleFiles, writeVaultFile } from "../../helpers/vault-files";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness));

/** Raw request paths (after /vault/) that name no note a client may touch. */
const INVALID: [string, string][] = [
	["an encoded slash inside a segment", "a%2Fb.md"],
	["an empty segment", "a//b.md"],
	["a leading slash", "/a.md"],
	["a dot segment", "./a.md"],
	["a NUL byte", "a%00.md"],
	["a newline", "a%0Ab.md"],
	["a backslash", "a%5Cb.md"],
	["a colon", "c%3Ab.md"],
	["a drive letter", "C%3A/a.md"],
	["a wildcard", "a*.md"],
	["a look-alike slash", "a%E2%88%95b.md"],
	["a full-width dot", "a%EF%BC%8Emd"],
	["a trailing dot on a folder", "folder./a.md"],
	["a trailing space on a folder", "folder%20/a.md"],
	["a Windows reserved name", "con.md"],
	["broken percent-encoding", "a%E0%A4%A.md"],
	["a segment over 255 bytes", `${encodeURIComponent("é".repeat(130))}.md`],
	["a hidden file", ".hidden.md"],
	["the trash", ".trash/a.md"],
	["the config folder", ".obsidian/a.md"],
	["the plugin's state folder", ".revision-guard/a.md"],
	["no extension", "README"],
	["a non-note extension", "script.js"],
];

describe("note paths", () => {
	it.each(INVALID)("refuses %s with 400 invalid-path for reads and writes, creating nothing", async (_label, rest) => {
		const rawPath = `/vault/${rest}`;
		for (const options of [
			{ method: "GET" },
			{ method: "PUT", body: "x\n" },
			{ method: "POST", body: "x\n" },
			{ method: "DELETE", headers: { "If-Match": '"x"' } },
		]) {
			const res = await h.api(rawPath, { ...options, rawPath });
			expect(res.status, `${options.method} ${rawPath}`).toBe(400);
			expect(res.json()).toMatchObject({
				type: "/problems/invalid-path",
				detail: expect.stringContaining("Nothing was read or written"),
			});
		}
		expect(await allFiles(h.dir).then((files) => files.filter((path) => !path.startsWith(".revision-guard/")))).toEqual(
			[],
		);
	});

	it("decodes percent-encoding exactly once", async () => {
		const res = await h.api("/vault/100%2525.md", { method: "PUT", body: "literal\n" });
		expect(res.status).toBe(204);
		expect(await readFile(join(h.dir, "100%25.md"), "utf8")).toBe("literal\n");
		expect(res.headers.location).toBe("/vault/100%2525.md");
	});

	it("serves a decomposed (NFD) name by that exact name, as listed, and never creates its NFC twin beside it", async () => {
		const nfd = "Cafe\u0301.md";
		const nfc = "Caf\u00e9.md";
		// Written by macOS or a sync tool: the name on disk is NFD.
		await writeVaultFile(h.dir, nfd, "one\n");
		const listing = await h.api("/vault/");
		expect(listing.json<{ files: string[] }>().files).toEqual([nfd]);
		const read = await h.api(`/vault/${encodeURIComponent(nfd)}`);
		expect(read.status).toBe(200);
		expect(read.text).toBe("one\n");
		const update = await h.api(`/vault/${encodeURIComponent(nfd)}`, {
			method: "PUT",
			body: "two\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(update.status).toBe(204);
		expect(await visibleFiles(h.dir)).toEqual([nfd]);
		// The other spelling would be a second, look-alike note: refused, naming the one that exists.
		const twin = await h.api(`/vault/${encodeURIComponent(nfc)}`, { method: "PUT", body: "twin\n" });
		expect(twin.status, twin.text).toBe(409);
		expect(twin.json()).toMatchObject({ type: "/problems/name-clash", existing: nfd });
		expect(await visibleFiles(h.dir)).toEqual([nfd]);
		expect((await readVaultFile(h.dir, nfd)).toString()).toBe("two\n");
	});

	it("matches the note extension case-insensitively", async () => {
		await writeVaultFile(h.dir, "UPPER.MD", "upper\n");
		const res = await h.api("/vault/UPPER.MD");
		expect(res.status).toBe(200);
		expect(res.text).toBe("upper\n");
	});

	it("serves other extensions only once noteExtensions lists them", async () => {
		await writeVaultFile(h.dir, "plain.txt", "text\n");
		expect((await h.api("/vault/plain.txt")).status).toBe(400);
		h.settings.noteExtensions = ["md", "txt"];
		const res = await h.api("/vault/plain.txt");
		expect(res.status).toBe(200);
		expect(res.text).toBe("text\n");
		const listing = (await h.api("/vault/")).json<{ entries: { name: string; changeTag?: string }[] }>();
		expect(listing.entries.find((entry) => entry.name === "plain.txt")?.changeTag).toEqual(expect.any(String));
	});

	it("allows spaces, unicode and dots inside names", async () => {
		for (const name of ["My Notes/2026.01.02 plan.md", "日本語/ノート.md", "emoji 🎉/a.b.c.md"]) {
			const path = name.split("/").map(encodeURIComponent).join("/");
			expect((await h.api(`/vault/${path}`, { method: "PUT", body: name })).status, name).toBe(204);
			expect((await h.api(`/vault/${path}`)).text).toBe(name);
		}
	});
});
