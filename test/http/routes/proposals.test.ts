/**
 * GET /proposals and GET /proposals/{id}?wait= over both gateways. Proposals are made by driving the store directly
 * (part A routes a scoped key's writes into it); the person decides through the service, as the plugin and the
 * headless command do.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProposalRecord } from "../../../src/core/proposals";
import { revisionOf } from "../../../src/core/revision";
import { changeTagOf } from "../../../src/core/revision-tokens";
import { agentActor } from "../../../src/service/notes/actor";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { writeVaultFile } from "../../helpers/vault-files";
import { writeRequest } from "../../helpers/write-request";
import { OTHER_KEY, STACKS, type Stack } from "../stacks";

forbidServerErrors();

const PLAN = "# Plan\n\n- one\n";
const PROPOSED = "# Plan\n\n- one\n- two (agent)\n";

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("proposals over REST, %s", (name) => {
	let dir: string;
	let s: Stack;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-proposals-"));
		await writeVaultFile(dir, "Plan.md", PLAN);
		s = await STACKS[name](dir);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	const propose = (body = PROPOSED, key = "test-agent") =>
		s.guard.proposals.propose(writeRequest("Plan.md", body, { actor: agentActor(key) }));
	const asOther = { Authorization: `Bearer ${OTHER_KEY}` };

	it("lists only this key's proposals, newest first, filtered by status", async () => {
		expect((await s.api("/proposals")).json()).toEqual({ proposals: [] });
		const first = await propose();
		const second = await propose("# Plan\n\nsecond\n");
		const others = await propose("# Plan\n\nother\n", "other-agent");
		const mine = (await s.api("/proposals")).json<{ proposals: ProposalRecord[] }>().proposals;
		expect(mine.map((record) => record.id)).toEqual([second.id, first.id]);
		expect(
			(await s.api("/proposals", { headers: asOther }))
				.json<{ proposals: ProposalRecord[] }>()
				.proposals.map((record) => record.id),
		).toEqual([others.id]);
		await s.guard.notes.proposals.rejectAsPerson(first.id);
		expect(
			(await s.api("/proposals?status=pending"))
				.json<{ proposals: ProposalRecord[] }>()
				.proposals.map((record) => record.id),
		).toEqual([second.id]);
		expect(
			(await s.api("/proposals?status=rejected"))
				.json<{ proposals: ProposalRecord[] }>()
				.proposals.map((record) => record.id),
		).toEqual([first.id]);
		const bad = await s.api("/proposals?status=open");
		expect(bad.status).toBe(400);
		expect(bad.json()).toMatchObject({ type: "/problems/bad-request" });
	});

	it("shows a proposal with change tags only (a record shows no content), and the note unchanged", async () => {
		const { id, backupPath } = await propose();
		const res = await s.api(`/proposals/${id}`);
		expect(res.status).toBe(200);
		expect(res.json()).toEqual({
			id,
			path: "Plan.md",
			agent: "test-agent",
			time: expect.any(String),
			operation: "replace",
			baseRevision: changeTagOf(revisionOf(PLAN)),
			proposedRevision: changeTagOf(revisionOf(PROPOSED)),
			backupPath,
			status: "pending",
		});
		expect(await s.file("Plan.md")).toBe(PLAN);
		expect(await s.file(backupPath)).toBe(PROPOSED);
	});

	it("answers another key's proposal, an unknown id and a bad encoding as missing or bad, never showing it", async () => {
		const { id } = await propose();
		for (const [path, headers] of [
			[`/proposals/${id}`, asOther],
			["/proposals/p-20260101-000000-00000000", {}],
			[`/proposals/${id}?wait=1`, asOther],
		] as const) {
			const res = await s.api(path, { headers });
			expect(res.status).toBe(404);
			expect(res.json()).toMatchObject({ type: "/problems/proposal-not-found", status: 404 });
			expect(res.text).not.toContain("Plan.md");
		}
		expect((await s.api("/proposals/%E0%A4%A")).status).toBe(400);
	});

	it("long-polls until the person rejects, with their note", async () => {
		const { id } = await propose();
		const waiting = s.api(`/proposals/${id}?wait=20`);
		await new Promise((resolve) => setTimeout(resolve, 100));
		await s.guard.notes.proposals.rejectAsPerson(id, "Keep it as it is.");
		const res = await waiting;
		expect(res.json()).toMatchObject({
			id,
			status: "rejected",
			note: "Keep it as it is.",
			decidedAt: expect.any(String),
		});
		expect(await s.file("Plan.md")).toBe(PLAN);
	});

	it("long-polls until the person accepts, as sent or with edits, and says which", async () => {
		const sent = await propose();
		const waiting = s.api(`/proposals/${sent.id}?wait=20`);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(await s.guard.notes.proposals.acceptAsPerson(sent.id)).toMatchObject({ kind: "accepted" });
		expect((await waiting).json()).toMatchObject({
			status: "accepted",
			acceptedRevision: changeTagOf(revisionOf(PROPOSED)),
		});
		expect(await s.file("Plan.md")).toBe(PROPOSED);

		const edited = await propose(PROPOSED + "- three (agent)\n");
		await s.guard.notes.proposals.acceptAsPerson(edited.id, { text: PROPOSED + "- three (edited)\n" });
		expect((await s.api(`/proposals/${edited.id}?wait=5`)).json()).toMatchObject({ status: "accepted-with-edits" });
		expect(await s.file("Plan.md")).toBe(PROPOSED + "- three (edited)\n");
	});

	it("answers the record as it is when the wait runs out", async () => {
		const { id } = await propose();
		expect((await s.api(`/proposals/${id}?wait=0.1`)).json()).toMatchObject({ id, status: "pending" });
	});

	it.each(["-1", "61", "soon", ""])("refuses ?wait=%s with 400", async (wait) => {
		const { id } = await propose();
		const res = await s.api(`/proposals/${id}?wait=${wait}`);
		expect(res.status).toBe(400);
		expect(res.json()).toMatchObject({ type: "/problems/bad-request" });
	});

	it("has no way for a key to accept or reject: only GET is served", async () => {
		const { id } = await propose();
		for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
			const res = await s.api(`/proposals/${id}`, method === "DELETE" ? { method } : { method, body: "accept" });
			expect(res.status, `${method} ${res.text}`).toBe(405);
			expect(res.headers.allow).toBe("GET, HEAD");
		}
		const listPost = await s.api("/proposals", { method: "POST", body: "{}" });
		expect(listPost.status, listPost.text).toBe(405);
		expect(s.guard.proposals.log.get(id)?.status).toBe("pending");
		expect(await s.file("Plan.md")).toBe(PLAN);
	});
});
