/**
 * /active/ as in the Local REST API: the note open in Obsidian's active editor, read and written through the same
 * guarded handlers as /vault/{path}. Headless there is never an active note.
 */
import { changeTagOf } from "../../../src/core/revision-tokens";
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, visibleFiles, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors();

const NOTE = "# Today\n- one\n";

function expectProblem(res: CallResult, status: number, name: string): { detail: string; backupPath?: string } {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
	return res.json<{ detail: string; backupPath?: string }>();
}

let dir: string;
let s: Stack;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-active-"));
	await writeVaultFile(dir, "Daily/Today.md", NOTE);
	await writeVaultFile(dir, "Daily/scan.pdf", "%PDF-1.4\n");
});
afterEach(async () => {
	await s.close();
	await rm(dir, { recursive: true, force: true });
});

describe("/active/ headless", () => {
	beforeEach(async () => {
		s = await STACKS["node filesystem"](dir);
	});

	it.each(["GET", "HEAD", "PUT", "POST", "PATCH", "DELETE"])(
		"answers %s with 404 no-active-note and touches nothing",
		async (method) => {
			const res = await s.api("/active/", {
				method,
				body: method === "GET" || method === "HEAD" || method === "DELETE" ? undefined : "x\n",
				headers: { Operation: "append", "Target-Type": "heading", Target: "Today" },
			});
			expect(res.status).toBe(404);
			if (method !== "HEAD")
				expect(expectProblem(res, 404, "no-active-note").detail).toMatch(/No note is open.*headless/);
			expect(await s.file("Daily/Today.md")).toBe(NOTE);
			expect(await visibleFiles(dir)).toEqual(["Daily/Today.md", "Daily/scan.pdf"]);
		},
	);
});

describe("/active/ in Obsidian", () => {
	beforeEach(async () => {
		s = await STACKS.obsidian(dir);
	});
	const open = (path: string) => s.app!.openEditor(path);

	it("answers 404 no-active-note while no editor is open", async () => {
		expectProblem(await s.api("/active/"), 404, "no-active-note");
	});

	it("reads the active note like /vault/{path}, naming it in Content-Location", async () => {
		open("Daily/Today.md");
		const res = await s.api("/active/");
		expect(res.status).toBe(200);
		expect(res.text).toBe(NOTE);
		expect(res.headers["content-type"]).toBe("text/markdown; charset=utf-8");
		expect(res.headers.etag).toBe(`"${sha256Token(NOTE)}"`);
		expect(res.headers["content-location"]).toBe("/vault/Daily/Today.md");
		const json = await s.api("/active", { headers: { Accept: "application/vnd.olrapi.note+json" } });
		expect(json.json()).toMatchObject({ path: "Daily/Today.md", content: NOTE, revision: sha256Token(NOTE), tags: [] });
		const head = await s.api("/active/", { method: "HEAD" });
		expect(head.status).toBe(200);
		expect(head.text).toBe("");
		// HEAD shows no content: the change tag of the same revision, never a token.
		expect(head.headers.etag).toBe(`W/"${changeTagOf(sha256Token(NOTE))}"`);
	});

	it("holds a tokenless PUT to the client's last read, exactly like /vault/{path}", async () => {
		open("Daily/Today.md");
		expectProblem(await s.api("/active/", { method: "PUT", body: "blind\n" }), 428, "precondition-required");
		await s.api("/active/");
		expect((await s.api("/active/", { method: "PUT", body: "# Today\n- agent\n" })).status).toBe(204);
		expect(await s.file("Daily/Today.md")).toBe("# Today\n- agent\n");
		await s.edit("Daily/Today.md", "# Today\n- person\n");
		const problem = expectProblem(await s.api("/active/", { method: "PUT", body: "stale\n" }), 412, "stale-revision");
		expect(await s.file(problem.backupPath!)).toBe("stale\n");
		expect(await s.file("Daily/Today.md")).toBe("# Today\n- person\n");
	});

	it("counts a read through /vault/{path} for /active/ and the other way round: it is one note", async () => {
		open("Daily/Today.md");
		await s.api("/vault/Daily/Today.md");
		expect((await s.api("/active/", { method: "PUT", body: "via active\n" })).status).toBe(204);
		expect((await s.api("/vault/Daily/Today.md", { method: "PUT", body: "via vault\n" })).status).toBe(204);
	});

	it("appends, patches and deletes the active note through the guarded handlers", async () => {
		open("Daily/Today.md");
		const tag = (await s.api("/active/")).headers.etag as string;
		expect((await s.api("/active/", { method: "POST", body: "- two\n" })).status).toBe(204);
		const patched = await s.api("/active/", {
			method: "PATCH",
			body: "- first",
			headers: { "Markdown-Patch-Version": "1", Operation: "prepend", "Target-Type": "heading", Target: "Today" },
		});
		expect(patched.status, patched.text).toBe(200);
		expect(await s.file("Daily/Today.md")).toBe("# Today\n- first\n- one\n- two\n");
		expectProblem(await s.api("/active/", { method: "DELETE", headers: { "If-Match": tag } }), 412, "stale-revision");
		expect(
			(await s.api("/active/", { method: "DELETE", headers: { "If-Match": patched.headers.etag as string } })).status,
		).toBe(204);
		expect(await s.file("Daily/Today.md")).toBeNull();
	});

	it("refuses an active file that is not a note it serves (404), reading and writing nothing", async () => {
		open("Daily/scan.pdf");
		const problem = expectProblem(await s.api("/active/", { method: "PUT", body: "x" }), 404, "no-active-note");
		expect(problem.detail).toContain("Daily/scan.pdf");
		expect(await s.file("Daily/scan.pdf")).toBe("%PDF-1.4\n");
	});
});
