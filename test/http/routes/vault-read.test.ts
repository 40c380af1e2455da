import { beforeEach, describe, expect, it } from "vitest";
import { eachHeadless, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../../helpers/vault-files";
import { changeTagOf } from "../../../src/core/revision-tokens";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness));

interface NoteJson {
	path: string;
	content: string;
	revision: string;
	stat: { ctime: number; mtime: number; size: number };
	frontmatter: Record<string, unknown>;
}

interface Listing {
	files: string[];
	entries: { name: string; path: string; type: "file" | "folder"; changeTag?: string; size?: number; mtime?: number }[];
}

const NOTE = "---\ntitle: Plan\ntags: [a, b]\n---\n# Plan 🚀\r\nsecond line";

describe("GET /vault/{path} (a note)", () => {
	it("returns the raw bytes as text/markdown with a strong ETag that is the SHA-256 of those bytes", async () => {
		const bytes = Buffer.from("\ufeff" + NOTE, "utf8");
		await writeVaultFile(h.dir, "notes/plan.md", bytes);
		const res = await h.api("/vault/notes/plan.md");
		expect(res.status).toBe(200);
		expect(res.headers["content-type"]).toBe("text/markdown; charset=utf-8");
		expect(Buffer.from(res.text, "utf8").equals(bytes)).toBe(true);
		expect(res.headers["content-length"]).toBe(String(bytes.length));
		expect(res.headers.etag).toBe(`"${sha256Token(bytes)}"`);
		expect(res.headers["cache-control"]).toBe("no-store");
	});

	it("decodes percent-encoded segments once (spaces, unicode)", async () => {
		await writeVaultFile(h.dir, "My Notes/Café plan.md", "café\n");
		const res = await h.api(`/vault/My%20Notes/${encodeURIComponent("Café plan.md")}`);
		expect(res.status).toBe(200);
		expect(res.text).toBe("café\n");
	});

	it("answers Accept: application/json (axios's and the n8n node's default) with the markdown, as the Local REST API does", async () => {
		await writeVaultFile(h.dir, "notes/plan.md", NOTE);
		const res = await h.api("/vault/notes/plan.md", { headers: { Accept: "application/json" } });
		expect(res.headers["content-type"]).toBe("text/markdown; charset=utf-8");
		expect(res.text).toBe(NOTE);
	});

	it.each([["application/vnd.olrapi.note+json", "application/vnd.olrapi.note+json; charset=utf-8"]])(
		"answers Accept: %s with path, content, revision, stat and frontmatter",
		async (accept, contentType) => {
			await writeVaultFile(h.dir, "notes/plan.md", NOTE);
			const res = await h.api("/vault/notes/plan.md", { headers: { Accept: accept } });
			expect(res.status).toBe(200);
			expect(res.headers["content-type"]).toBe(contentType);
			const body = res.json<NoteJson>();
			const size = Buffer.byteLength(NOTE, "utf8");
			expect(body).toMatchObject({
				path: "notes/plan.md",
				content: NOTE,
				revision: sha256Token(NOTE),
				frontmatter: { title: "Plan", tags: ["a", "b"] },
			});
			expect(body.stat.size).toBe(size);
			expect(body.stat.mtime).toBeGreaterThan(0);
			expect(body.stat.ctime).toBeGreaterThan(0);
			expect(res.headers.etag).toBe(`"${body.revision}"`);
		},
	);

	it("gives an empty frontmatter object to a note without one", async () => {
		await writeVaultFile(h.dir, "plain.md", "no frontmatter\n");
		const res = await h.api("/vault/plain.md", { headers: { Accept: "application/vnd.olrapi.note+json" } });
		expect(res.json<NoteJson>().frontmatter).toEqual({});
	});

	it("answers HEAD with GET's headers and no body, its ETag the change tag of the same revision", async () => {
		await writeVaultFile(h.dir, "a.md", NOTE);
		const get = await h.api("/vault/a.md");
		const head = await h.api("/vault/a.md", { method: "HEAD" });
		expect(head.status).toBe(200);
		expect(head.text).toBe("");
		for (const name of ["content-type", "content-length", "last-modified", "cache-control"]) {
			expect(head.headers[name], name).toBeDefined();
			expect(head.headers[name], name).toBe(get.headers[name]);
		}
		// HEAD shows no content, so it hands no token: a weak change tag, which still answers If-None-Match.
		expect(head.headers.etag).toBe(`W/"${changeTagOf(sha256Token(NOTE))}"`);
		expect(get.headers.etag).toBe(`"${sha256Token(NOTE)}"`);
		expect((await h.api("/vault/a.md", { headers: { "If-None-Match": head.headers.etag as string } })).status).toBe(
			304,
		);
	});

	it("answers HEAD in JSON form with the JSON headers and no body", async () => {
		await writeVaultFile(h.dir, "a.md", NOTE);
		const get = await h.api("/vault/a.md", { headers: { Accept: "application/vnd.olrapi.note+json" } });
		const head = await h.api("/vault/a.md", {
			method: "HEAD",
			headers: { Accept: "application/vnd.olrapi.note+json" },
		});
		expect(head.text).toBe("");
		expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
		expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
		expect(head.headers.etag).toBe(`W/"${changeTagOf(sha256Token(NOTE))}"`);
	});

	it("answers 304 without a body when If-None-Match names the current revision", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const first = await h.api("/vault/a.md");
		const again = await h.api("/vault/a.md", { headers: { "If-None-Match": first.headers.etag as string } });
		expect(again.status).toBe(304);
		expect(again.text).toBe("");
		expect(again.headers.etag).toBe(first.headers.etag);
	});

	it("answers 304 to If-None-Match: * when the note exists (RFC 9110 §13.1.2)", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api("/vault/a.md", { headers: { "If-None-Match": "*" } });
		expect(res.status).toBe(304);
		expect(res.text).toBe("");
	});

	it("answers 200 when If-None-Match names an older revision", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const first = await h.api("/vault/a.md");
		await writeVaultFile(h.dir, "a.md", "two\n");
		const again = await h.api("/vault/a.md", { headers: { "If-None-Match": first.headers.etag as string } });
		expect(again.status).toBe(200);
		expect(again.text).toBe("two\n");
		expect(again.headers.etag).toBe(`"${sha256Token("two\n")}"`);
	});

	it("answers 404 note-not-found as problem+json for a missing note", async () => {
		const res = await h.api("/vault/nope/missing.md");
		expect(res.status).toBe(404);
		expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
		expect(res.json()).toMatchObject({
			type: "/problems/note-not-found",
			status: 404,
			title: expect.any(String),
			detail: expect.stringContaining("nope/missing.md"),
		});
	});

	it("answers HEAD of a missing note with 404 and no body", async () => {
		const res = await h.api("/vault/missing.md", { method: "HEAD" });
		expect(res.status).toBe(404);
		expect(res.text).toBe("");
	});

	it("refuses a non-note extension with 400 invalid-path", async () => {
		await writeVaultFile(h.dir, "image.png", "not a note");
		const res = await h.api("/vault/image.png");
		expect(res.status).toBe(400);
		expect(res.json()).toMatchObject({ type: "/problems/invalid-path", status: 400 });
		expect(res.text).not.toContain("not a note");
	});

	it("refuses hidden files and the config folder with 400 invalid-path", async () => {
		await writeVaultFile(h.dir, ".secret.md", "hidden");
		await writeVaultFile(h.dir, ".obsidian/workspace.md", "config");
		for (const path of [
			"/vault/.secret.md",
			"/vault/.obsidian/workspace.md",
			"/vault/.revision-guard/conflicts.md",
			"/vault/.obsidian/",
		]) {
			const res = await h.api(path);
			expect(res.status, path).toBe(400);
			expect(res.json().type, path).toBe("/problems/invalid-path");
		}
	});
});

describe("GET /vault/ and /vault/{folder}/ (listings)", () => {
	beforeEach(async () => {
		await writeVaultFile(h.dir, "root.md", "root\n");
		await writeVaultFile(h.dir, "picture.png", "png");
		await writeVaultFile(h.dir, "sub/child.md", "child\n");
		await writeVaultFile(h.dir, "sub/deeper/leaf.md", "leaf\n");
		await writeVaultFile(h.dir, "sub/.hidden.md", "hidden\n");
		await writeVaultFile(h.dir, ".hidden-root.md", "hidden\n");
		await writeVaultFile(h.dir, ".trash/old.md", "old\n");
	});

	it("lists the vault root: names, folders ending in /, notes with their change tags (never a revision)", async () => {
		const res = await h.api("/vault/");
		expect(res.status).toBe(200);
		expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
		const body = res.json<Listing>();
		expect(body.files).toEqual(["picture.png", "root.md", "sub/"]);
		const byName = new Map(body.entries.map((entry) => [entry.name, entry]));
		expect(byName.get("root.md")).toMatchObject({
			path: "root.md",
			type: "file",
			changeTag: changeTagOf(sha256Token("root\n")),
			size: 5,
		});
		expect(res.text).not.toContain(sha256Token("root\n"));
		expect(byName.get("sub/")).toMatchObject({ type: "folder" });
		expect(byName.get("sub/")?.changeTag).toBeUndefined();
		expect(byName.get("picture.png")).toMatchObject({ type: "file", size: 3 });
		expect(byName.get("picture.png")?.changeTag).toBeUndefined();
	});

	it("lists a subfolder with names relative to it and never shows hidden entries", async () => {
		const res = await h.api("/vault/sub/");
		expect(res.status).toBe(200);
		const body = res.json<Listing>();
		expect(body.files).toEqual(["child.md", "deeper/"]);
		expect(body.entries.find((entry) => entry.name === "child.md")).toMatchObject({
			path: "sub/child.md",
			changeTag: changeTagOf(sha256Token("child\n")),
		});
		expect(res.text).not.toContain("hidden");
	});

	it("never lists the hidden state, trash or dot files at the root", async () => {
		await h.api("/vault/root.md", {
			method: "DELETE",
			headers: { "If-Match": (await h.api("/vault/root.md")).headers.etag as string },
		});
		const body = (await h.api("/vault/")).json<Listing>();
		expect(body.files.some((name) => name.startsWith("."))).toBe(false);
		expect(body.entries.some((entry) => entry.path.split("/").some((part) => part.startsWith(".")))).toBe(false);
	});

	it("lists a nested folder", async () => {
		const body = (await h.api("/vault/sub/deeper/")).json<Listing>();
		expect(body.files).toEqual(["leaf.md"]);
	});

	it("answers 404 for a missing folder", async () => {
		const res = await h.api("/vault/nowhere/");
		expect(res.status).toBe(404);
		expect(res.headers["content-type"]).toContain("application/problem+json");
	});
});
