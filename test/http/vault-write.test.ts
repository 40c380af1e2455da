import { readFile, writeFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHeadless, type Harness } from "../helpers/headless-harness";

let h: Harness;
beforeEach(async () => {
	h = await startHeadless();
});
afterEach(async () => {
	await h.close();
});

describe("PUT /vault/{path}", () => {
	it("creates a note without a token and returns its ETag", async () => {
		const res = await h.api("/vault/notes/new.md", { method: "PUT", body: "hello\n" });
		expect(res.status).toBe(201);
		expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
		expect(await readFile(join(h.dir, "notes/new.md"), "utf8")).toBe("hello\n");
	});

	it("refuses an update without If-Match with 428", async () => {
		await writeFile(join(h.dir, "a.md"), "one\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n" });
		expect(res.status).toBe(428);
		expect(res.headers["content-type"]).toContain("application/problem+json");
		expect(res.json().detail).toMatch(/If-Match/);
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("one\n");
	});

	it("refuses a stale write with 412 and keeps the body as .bak", async () => {
		await writeFile(join(h.dir, "a.md"), "one\n");
		const read = await h.api("/vault/a.md");
		const etag = read.headers.etag as string;
		await writeFile(join(h.dir, "a.md"), "one\nuser edit\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "agent version\n", headers: { "If-Match": etag } });
		expect(res.status).toBe(412);
		const body = res.json<{ backupPath: string; changes: string; conflictId: string; sentRevision: string }>();
		expect(body.sentRevision).toBe(etag.slice(1, -1));
		expect(await readFile(join(h.dir, body.backupPath), "utf8")).toBe("agent version\n");
		expect(body.changes).toContain("+user edit");
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("one\nuser edit\n");
		const conflict = await h.api(`/conflicts/${body.conflictId}`);
		expect(conflict.json()).toMatchObject({ path: "a.md", status: "open", agent: "test-agent" });
	});

	it("accepts a fresh token", async () => {
		await writeFile(join(h.dir, "a.md"), "one\n");
		const read = await h.api("/vault/a.md");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": read.headers.etag as string } });
		expect(res.status).toBe(204);
		expect(res.headers.etag).not.toBe(read.headers.etag);
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("two\n");
	});
});
