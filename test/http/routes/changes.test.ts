import { describe, expect, it } from "vitest";
import { eachHeadless, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../../helpers/vault-files";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness));

interface ChangesBody {
	path: string;
	since: string;
	revision: string;
	changed: boolean;
	diff: string;
}

describe("GET /changes/{path}?since=<revision>", () => {
	it("returns a unified diff from a revision the agent read to the note now, with the current ETag", async () => {
		await writeVaultFile(h.dir, "notes/a.md", "one\ntwo\nthree\n");
		const since = ((await h.api("/vault/notes/a.md")).headers.etag as string).slice(1, -1);
		await writeVaultFile(h.dir, "notes/a.md", "one\n2\nthree\nfour\n");
		const res = await h.api(`/changes/notes/a.md?since=${since}`);
		expect(res.status).toBe(200);
		const now = sha256Token("one\n2\nthree\nfour\n");
		expect(res.headers.etag).toBe(`"${now}"`);
		expect(res.json<ChangesBody>()).toEqual({
			path: "notes/a.md",
			since,
			to: now,
			revision: now,
			changed: true,
			offset: 0,
			diff: `--- a/notes/a.md@${since.slice(0, 12)}\n+++ b/notes/a.md\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n`,
		});
	});

	it("accepts the ETag with its quotes as since", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = (await h.api("/vault/a.md")).headers.etag as string;
		await writeVaultFile(h.dir, "a.md", "two\n");
		const res = await h.api(`/changes/a.md?since=${encodeURIComponent(etag)}`);
		expect(res.status).toBe(200);
		expect(res.json<ChangesBody>().since).toBe(etag.slice(1, -1));
		expect(res.json<ChangesBody>().diff).toContain("-one\n+two\n");
	});

	it("says changed: false with an empty diff when nothing changed", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const since = ((await h.api("/vault/a.md")).headers.etag as string).slice(1, -1);
		const body = (await h.api(`/changes/a.md?since=${since}`)).json<ChangesBody>();
		expect(body).toMatchObject({ changed: false, diff: "", revision: since });
	});

	it("gives a revision from /changes that a PUT can use as If-Match", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const since = ((await h.api("/vault/a.md")).headers.etag as string).slice(1, -1);
		await writeVaultFile(h.dir, "a.md", "two\n");
		const changes = await h.api(`/changes/a.md?since=${since}`);
		const res = await h.api("/vault/a.md", {
			method: "PUT",
			body: "three\n",
			headers: { "If-Match": changes.headers.etag as string },
		});
		expect(res.status).toBe(204);
	});

	it.each(["", "?since=", "?other=x"])("answers a missing since (%s) with 400 bad-request", async (query) => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api(`/changes/a.md${query}`);
		expect(res.status).toBe(400);
		expect(res.json()).toMatchObject({ type: "/problems/bad-request", detail: expect.stringContaining("since") });
	});

	it("answers an unknown revision with 404 base-not-retained", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api(`/changes/a.md?since=${sha256Token("never existed")}`);
		expect(res.status).toBe(404);
		expect(res.json()).toMatchObject({ type: "/problems/base-not-retained", path: "a.md" });
	});

	it("answers a missing note with 404 note-not-found", async () => {
		const res = await h.api(`/changes/missing.md?since=${sha256Token("x")}`);
		expect(res.status).toBe(404);
		expect(res.json()).toMatchObject({ type: "/problems/note-not-found" });
	});

	it("refuses an invalid path with 400 invalid-path", async () => {
		const res = await h.api(`/changes/.obsidian/app.md?since=${sha256Token("x")}`);
		expect(res.status).toBe(400);
		expect(res.json()).toMatchObject({ type: "/problems/invalid-path" });
	});
});
