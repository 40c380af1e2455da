/** The merge, offered to agents: Prefer: merge=auto on PUT, GET /conflicts/{id}/merge, long-polling, and resolving by PUT. */
import { changeTagOf, partTokenOf } from "../../src/core/revision-tokens";
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConflictRecord } from "../../src/core/conflicts";
import { startHeadless, type Harness } from "../helpers/headless-harness";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../helpers/vault-files";

forbidServerErrors();

const BASE = "# Plan\n\nintro\n\n- one\n- two\n- three\n\nend\n";
let h: Harness;
beforeEach(async () => {
	h = await startHeadless();
	await writeVaultFile(h.dir, "Plan.md", BASE);
});
afterEach(async () => {
	await h.close();
});

/** The agent reads, then the person edits the intro. Returns the agent's stale ETag. */
async function readThenPersonEdits(): Promise<string> {
	const etag = (await h.api("/vault/Plan.md")).headers.etag as string;
	await writeVaultFile(h.dir, "Plan.md", BASE.replace("intro", "intro, edited by the person"));
	return etag;
}
const note = () => readFile(join(h.dir, "Plan.md"), "utf8");

describe("PUT with Prefer: merge=auto", () => {
	it("merges a stale write whose changes do not overlap, and says so", async () => {
		const etag = await readThenPersonEdits();
		const res = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: BASE.replace("- three", "- three\n- four"),
			headers: { "If-Match": etag, Prefer: "return=minimal, merge=auto" },
		});
		expect(res.status).toBe(200);
		expect(res.headers["preference-applied"]).toBe("merge=auto");
		expect(res.json()).toMatchObject({ path: "Plan.md", merged: true });
		const merged = BASE.replace("intro", "intro, edited by the person").replace("- three", "- three\n- four");
		expect(await note()).toBe(merged);
		// The agent has not seen the merge: its ETag is a part token (it can patch), not the revision a GET hands out.
		expect(res.headers.etag).toBe(`"${partTokenOf(sha256Token(merged))}"`);
		expect((await h.api("/vault/Plan.md")).headers.etag).toBe(`"${sha256Token(merged)}"`);
	});

	it("refuses an overlapping stale write with the usual 412, a .bak and a merge preview with markers", async () => {
		const etag = await readThenPersonEdits();
		const body = BASE.replace("intro", "intro, rewritten by the agent");
		const res = await h.api("/vault/Plan.md", {
			method: "PUT",
			body,
			headers: { "If-Match": etag, Prefer: "merge=auto" },
		});
		expect(res.status).toBe(412);
		const problem = res.json<{ mergePreview: string; backupPath: string }>();
		expect(problem.mergePreview).toContain("<<<<<<< mine\nintro, edited by the person\n");
		expect(problem.mergePreview).toContain("=======\nintro, rewritten by the agent\n>>>>>>> agent\n");
		expect(await readFile(join(h.dir, problem.backupPath), "utf8")).toBe(body);
		expect(await note()).toBe(BASE.replace("intro", "intro, edited by the person"));
	});

	it("is not applied when the setting forbids it", async () => {
		h.settings.allowAutoMerge = false;
		const etag = await readThenPersonEdits();
		const res = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: BASE.replace("end", "the end"),
			headers: { "If-Match": etag, Prefer: "merge=auto" },
		});
		expect(res.status).toBe(412);
		expect(res.headers["preference-applied"]).toBeUndefined();
	});

	it("does nothing special for a fresh token: a plain 204 without Preference-Applied", async () => {
		const etag = (await h.api("/vault/Plan.md")).headers.etag as string;
		const res = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: "new\n",
			headers: { "If-Match": etag, Prefer: "merge=auto" },
		});
		expect(res.status).toBe(204);
		expect(res.headers["preference-applied"]).toBeUndefined();
	});
});

describe("GET /conflicts/{id}/merge and resolving by PUT", () => {
	it("offers the merge with markers and the current revision; PUTting a resolution marks the conflict resolved", async () => {
		const etag = await readThenPersonEdits();
		const proposal = BASE.replace("intro", "intro, rewritten by the agent");
		const refused = (
			await h.api("/vault/Plan.md", { method: "PUT", body: proposal, headers: { "If-Match": etag } })
		).json<{ conflictId: string }>();
		const merge = await h.api(`/conflicts/${refused.conflictId}/merge`);
		expect(merge.status).toBe(200);
		const body = merge.json<{
			clean: boolean;
			conflicts: number;
			text: string;
			currentRevision: string;
			baseRetained: boolean;
		}>();
		expect(body).toMatchObject({ clean: false, conflicts: 1, baseRetained: true });
		expect(merge.headers.etag).toBe(`"${body.currentRevision}"`);
		const resolved = body.text.replace(/<<<<<<< mine\n[\s\S]*?>>>>>>> agent\n/, "intro, edited by both\n");
		const put = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: resolved,
			headers: { "If-Match": `"${body.currentRevision}"` },
		});
		expect(put.status).toBe(204);
		const record = (await h.api(`/conflicts/${refused.conflictId}`)).json<ConflictRecord>();
		expect(record).toMatchObject({
			status: "resolved",
			resolvedRevision: changeTagOf((put.headers.etag as string).slice(1, -1)),
			agentTaken: "partial",
			resolvedBy: "test-agent",
		});
	});

	it("reports agentTaken whole when the resolution keeps every agent change on top of the person's", async () => {
		const etag = await readThenPersonEdits();
		const proposal = BASE.replace("end", "the end, by the agent");
		const refused = (
			await h.api("/vault/Plan.md", { method: "PUT", body: proposal, headers: { "If-Match": etag } })
		).json<{ conflictId: string; currentRevision: string }>();
		const both = BASE.replace("intro", "intro, edited by the person").replace("end", "the end, by the agent");
		await h.api("/vault/Plan.md", {
			method: "PUT",
			body: both,
			headers: { "If-Match": `"${refused.currentRevision}"` },
		});
		expect((await h.api(`/conflicts/${refused.conflictId}`)).json()).toMatchObject({
			status: "resolved",
			agentTaken: "whole",
		});
	});

	it("answers 404 for an unknown conflict", async () => {
		expect((await h.api("/conflicts/c-nope/merge")).status).toBe(404);
	});
});

describe("GET /conflicts/{id}?wait=", () => {
	it("answers as soon as the status changes", async () => {
		const etag = await readThenPersonEdits();
		const refused = (
			await h.api("/vault/Plan.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } })
		).json<{ conflictId: string }>();
		const started = Date.now();
		const waiting = h.api(`/conflicts/${refused.conflictId}?wait=30`);
		setTimeout(() => h.guard.resolver.dismiss(refused.conflictId), 150);
		const res = await waiting;
		expect(res.json()).toMatchObject({ id: refused.conflictId, status: "dismissed" });
		expect(Date.now() - started).toBeLessThan(20_000);
	});

	it("answers with the unchanged record when the wait runs out", async () => {
		const etag = await readThenPersonEdits();
		const refused = (
			await h.api("/vault/Plan.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } })
		).json<{ conflictId: string }>();
		const res = await h.api(`/conflicts/${refused.conflictId}?wait=0.2`);
		expect(res.json()).toMatchObject({ status: "open" });
	});

	it.each(["61", "-1", "soon", "", "%20"])("refuses wait=%s with 400", async (wait) => {
		const etag = await readThenPersonEdits();
		const refused = (
			await h.api("/vault/Plan.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } })
		).json<{ conflictId: string }>();
		expect((await h.api(`/conflicts/${refused.conflictId}?wait=${wait}`)).status).toBe(400);
	});
});

describe("the documented recovery, with a read validity window on", () => {
	it("accepts the retry with the 412's currentRevision, and a PUT of the /merge text with its currentRevision", async () => {
		h.settings.readValidityMinutes = 30;
		const etag = await readThenPersonEdits();
		const refused = (
			await h.api("/vault/Plan.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } })
		).json<{ currentRevision: string; conflictId: string }>();
		const retry = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: "agent, rebased\n",
			headers: { "If-Match": `"${refused.currentRevision}"` },
		});
		expect(retry.status, retry.text).toBe(204);

		const stale = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: "older agent\n",
			headers: { "If-Match": etag },
		});
		const conflictId = stale.json<{ conflictId: string }>().conflictId;
		await writeVaultFile(h.dir, "Plan.md", "the person again\n");
		const merge = (await h.api(`/conflicts/${conflictId}/merge`)).json<{ currentRevision: string }>();
		const put = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: "resolved\n",
			headers: { "If-Match": `"${merge.currentRevision}"` },
		});
		expect(put.status, put.text).toBe(204);
	});
});
