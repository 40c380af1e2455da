/**
 * Scopes and proposals together, end to end over both gateways: a key that may only propose changes to a folder gets
 * 202 with a Location it follows; the note stays as it is until the person decides through the service; the agent's
 * long-poll learns the decision. A change with nothing to propose (a patch whose target is missing) is answered as
 * the writer answers it, never a 500, and leaves no proposal behind.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type AgentKey } from "../../../src/settings";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { writeVaultFile } from "../../helpers/vault-files";
import { STACKS, TWO_KEYS, type Stack } from "../stacks";

forbidServerErrors();

const DRAFTER_KEY = "drafter-key-0123456789abcdef0123456789abcdef";
const DRAFTER: AgentKey = {
	name: "drafter",
	key: DRAFTER_KEY,
	created: "2026-01-01",
	read: ["**"],
	write: ["Inbox/**"],
	propose: ["Plans/**"],
};
const PLAN = "# Plan\n\n- one\n";
const asDrafter = { Authorization: `Bearer ${DRAFTER_KEY}` };

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("a key that may only propose, over REST (%s)", (name) => {
	let dir: string;
	let s: Stack;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-proposals-scoped-"));
		await writeVaultFile(dir, "Plans/Plan.md", PLAN);
		s = await STACKS[name](dir, { settings: { keys: [...TWO_KEYS, DRAFTER] } });
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	it("gets 202 and a Location; the note waits for the person, and the agent's long-poll learns the decision", async () => {
		const tag = (await s.api("/vault/Plans/Plan.md", { headers: asDrafter })).headers.etag as string;
		const put = await s.api("/vault/Plans/Plan.md", {
			method: "PUT",
			body: `${PLAN}- two (agent)\n`,
			headers: { ...asDrafter, "If-Match": tag },
		});
		expect(put.status, put.text).toBe(202);
		const { proposalId } = put.json<{ proposalId: string }>();
		expect(put.headers.location).toBe(`/proposals/${proposalId}`);
		expect(await s.file("Plans/Plan.md")).toBe(PLAN);
		const waiting = s.api(`/proposals/${proposalId}?wait=30`, { headers: asDrafter });
		const accepted = await s.guard.notes.proposals.acceptAsPerson(proposalId, { note: "thanks" });
		expect(accepted).toMatchObject({ kind: "accepted" });
		const learned = await waiting;
		expect(learned.status, learned.text).toBe(200);
		expect(learned.json()).toMatchObject({ id: proposalId, status: "accepted", note: "thanks" });
		expect(await s.file("Plans/Plan.md")).toBe(`${PLAN}- two (agent)\n`);
		// Nobody but the person decides: the route that would is not there for any key.
		expect((await s.api(`/proposals/${proposalId}`, { method: "POST", headers: asDrafter })).status).toBe(405);
	});

	it("gets 202 through the periodic-note routes too, and the daily note waits for the person", async () => {
		await s.close();
		const periodicNotes = structuredClone(DEFAULT_SETTINGS.periodicNotes);
		periodicNotes.daily = { ...periodicNotes.daily, folder: "Plans" };
		await writeVaultFile(dir, "Plans/2026-03-05.md", PLAN);
		s = await STACKS[name](dir, { settings: { keys: [...TWO_KEYS, DRAFTER], periodicNotes } });
		const read = await s.api("/periodic/daily/2026/3/5/", { headers: asDrafter });
		expect(read.status, read.text).toBe(200);
		const post = await s.api("/periodic/daily/2026/3/5/", {
			method: "POST",
			body: "- two (agent)\n",
			headers: asDrafter,
		});
		expect(post.status, post.text).toBe(202);
		expect(post.json()).toMatchObject({ path: "Plans/2026-03-05.md", status: "pending" });
		expect(await s.file("Plans/2026-03-05.md")).toBe(PLAN);
	});

	it("answers a change with nothing to propose as the writer would: a missing target is 404, and no proposal is kept", async () => {
		const tag = (await s.api("/vault/Plans/Plan.md", { headers: asDrafter })).headers.etag as string;
		const patch = await s.api("/vault/Plans/Plan.md", {
			method: "PATCH",
			body: JSON.stringify({
				targetType: "heading",
				target: ["Nowhere"],
				operation: "append",
				content: "x",
				ifMatch: tag,
			}),
			headers: { ...asDrafter, "Content-Type": "application/json" },
		});
		expect(patch.status, patch.text).toBe(404);
		expect(patch.json()).toMatchObject({ type: "/problems/target-not-found" });
		expect((await s.api("/proposals", { headers: asDrafter })).json()).toMatchObject({ proposals: [] });
		expect(await s.file("Plans/Plan.md")).toBe(PLAN);
	});
});
