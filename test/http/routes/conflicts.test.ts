import { mkdtemp, readFile, rm } from "fs/promises";
import { changeTagOf } from "../../../src/core/revision-tokens";
import { tmpdir } from "os";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { eachHeadless, startHeadless, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../../helpers/vault-files";
import type { ConflictRecord } from "../../../src/core/conflicts";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness));

/** Produces one stale refusal on `path` and returns its conflict id. */
async function refuse(harness: Harness, path: string, body: string): Promise<string> {
	await writeVaultFile(harness.dir, path, "base\n");
	const etag = (await harness.api(`/vault/${path}`)).headers.etag as string;
	await writeVaultFile(harness.dir, path, "user edit\n");
	const res = await harness.api(`/vault/${path}`, { method: "PUT", body, headers: { "If-Match": etag } });
	expect(res.status).toBe(412);
	return res.json<{ conflictId: string }>().conflictId;
}

describe("GET /conflicts", () => {
	it("lists nothing on a fresh vault", async () => {
		const res = await h.api("/conflicts");
		expect(res.status).toBe(200);
		expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
		expect(res.json()).toEqual({ conflicts: [] });
	});

	it("lists every conflict, newest first", async () => {
		const first = await refuse(h, "a.md", "first\n");
		const second = await refuse(h, "b.md", "second\n");
		const third = await refuse(h, "notes/c.md", "third\n");
		const list = (await h.api("/conflicts")).json<{ conflicts: ConflictRecord[] }>().conflicts;
		expect(list.map((record) => record.id)).toEqual([third, second, first]);
		expect(list.map((record) => record.path)).toEqual(["notes/c.md", "b.md", "a.md"]);
	});

	it("filters by ?status=open", async () => {
		const settled = await refuse(h, "a.md", "first\n");
		const open = await refuse(h, "b.md", "second\n");
		h.guard.conflicts.setStatus(settled, "resolved", new Date().toISOString());
		const openList = (await h.api("/conflicts?status=open")).json<{ conflicts: ConflictRecord[] }>().conflicts;
		expect(openList.map((record) => record.id)).toEqual([open]);
		const resolved = (await h.api("/conflicts?status=resolved")).json<{ conflicts: ConflictRecord[] }>().conflicts;
		expect(resolved.map((record) => record.id)).toEqual([settled]);
		expect((await h.api("/conflicts?status=dismissed")).json()).toEqual({ conflicts: [] });
		expect((await h.api("/conflicts")).json<{ conflicts: ConflictRecord[] }>().conflicts).toHaveLength(2);
	});

	it.each(["closed", "OPEN", ""])("answers ?status=%s with 400 bad-request", async (status) => {
		const res = await h.api(`/conflicts?status=${status}`);
		expect(res.status).toBe(400);
		expect(res.json()).toMatchObject({ type: "/problems/bad-request", status: 400 });
	});
});

describe("GET /conflicts/{id}", () => {
	it("returns the record: id, path, sentRevision, currentRevision, backupPath, agent, time, status", async () => {
		const before = Date.now();
		await writeVaultFile(h.dir, "notes/a.md", "base\n");
		const etag = (await h.api("/vault/notes/a.md")).headers.etag as string;
		await writeVaultFile(h.dir, "notes/a.md", "user edit\n");
		const refused = (
			await h.api("/vault/notes/a.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } })
		).json<{ conflictId: string; backupPath: string }>();
		const res = await h.api(`/conflicts/${refused.conflictId}`);
		expect(res.status).toBe(200);
		const record = res.json<ConflictRecord>();
		expect(record).toEqual({
			id: refused.conflictId,
			path: "notes/a.md",
			reason: "stale",
			// A record shows no content: its revisions are change tags.
			sentRevision: changeTagOf(sha256Token("base\n")),
			currentRevision: changeTagOf(sha256Token("user edit\n")),
			proposedRevision: changeTagOf(sha256Token("agent\n")),
			backupPath: refused.backupPath,
			agent: "test-agent",
			time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
			status: "open",
		});
		expect(Date.parse(record.time)).toBeGreaterThanOrEqual(before - 1000);
		expect(Date.parse(record.time)).toBeLessThanOrEqual(Date.now());
		expect(await readFile(join(h.dir, record.backupPath as string), "utf8")).toBe("agent\n");
	});

	it("answers an unknown id with 404 conflict-not-found", async () => {
		const res = await h.api("/conflicts/c-20260101-000000-deadbeef");
		expect(res.status).toBe(404);
		expect(res.json()).toMatchObject({ type: "/problems/conflict-not-found", status: 404 });
	});

	it("answers a badly encoded id with 400, not an error", async () => {
		const res = await h.api("/conflicts/%E0%A4%A", { rawPath: "/conflicts/%E0%A4%A" });
		expect(res.status).toBe(400);
	});
});

describe("conflict records across a restart", () => {
	it("survive closing the server and opening a new one on the same folder", async () => {
		const dir = await mkdtemp(join(tmpdir(), "rg-restart-"));
		try {
			const first = await startHeadless({}, dir);
			const id = await refuse(first, "a.md", "kept across restarts\n");
			const before = (await first.api(`/conflicts/${id}`)).json<ConflictRecord>();
			await first.close();

			const second = await startHeadless({}, dir);
			try {
				const res = await second.api(`/conflicts/${id}`);
				expect(res.status).toBe(200);
				expect(res.json()).toEqual(before);
				expect(
					(await second.api("/conflicts?status=open"))
						.json<{ conflicts: ConflictRecord[] }>()
						.conflicts.map((record) => record.id),
				).toEqual([id]);
				expect(await readFile(join(second.dir, before.backupPath as string), "utf8")).toBe("kept across restarts\n");
			} finally {
				await second.close();
			}
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});
