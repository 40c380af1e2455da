/** proposal_status over both gateways: a key's own proposal, its long-poll to the person's decision, another key's as unknown. */
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { changeTagOf } from "../../src/core/revision-tokens";
import { agentActor } from "../../src/service/notes/actor";
import { writeRequest } from "../helpers/write-request";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const PLAN = "# Plan\n\n- one\n";
const PROPOSED = "# Plan\n\n- one\n- two (agent)\n";

describe.each(SUBJECT_NAMES)("proposal_status over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Plan.md": PLAN }, (subject, client) => {
		s = subject;
		mcp = client;
	});

	const propose = (key = "test-agent", body = PROPOSED) =>
		s.guard.proposals.propose(writeRequest("Plan.md", body, { actor: agentActor(key) }));

	it("is listed among our tools and reads like the conflict tool", async () => {
		const { tools } = await mcp.client.listTools();
		const tool = tools.find((candidate) => candidate.name === "proposal_status");
		expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
		expect(tool?.description).toContain("proposalId");
	});

	it("shows the key's own proposal with change tags, and waits for the person's rejection and note", async () => {
		const { id, backupPath } = await propose();
		const now = await mcp.tool("proposal_status", { id });
		expect(now.isError).toBe(false);
		expect(now.structured).toEqual({
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
		const waiting = mcp.tool("proposal_status", { id, wait: 20 });
		setTimeout(() => void s.guard.notes.proposals.rejectAsPerson(id, "Not this week."), 100);
		expect((await waiting).structured).toMatchObject({
			id,
			status: "rejected",
			note: "Not this week.",
			decidedAt: expect.any(String),
		});
	});

	it("learns an acceptance as sent, and one with the person's edits", async () => {
		const sent = await propose();
		const waiting = mcp.tool("proposal_status", { id: sent.id, wait: 20 });
		setTimeout(() => void s.guard.notes.proposals.acceptAsPerson(sent.id), 100);
		expect((await waiting).structured).toMatchObject({
			status: "accepted",
			acceptedRevision: changeTagOf(revisionOf(PROPOSED)),
		});
		const edited = await propose("test-agent", PROPOSED + "- three\n");
		await s.guard.notes.proposals.acceptAsPerson(edited.id, { text: PROPOSED + "- three (edited)\n" });
		// Decided already: the wait answers at once.
		expect((await mcp.tool("proposal_status", { id: edited.id, wait: 30 })).structured).toMatchObject({
			status: "accepted-with-edits",
		});
	});

	it("answers another key's proposal and an unknown id alike, as proposal-not-found", async () => {
		const theirs = await propose("other-agent");
		for (const id of [theirs.id, "p-20260101-000000-00000000"]) {
			const answer = await mcp.tool("proposal_status", { id, wait: 1 });
			expect(answer.isError).toBe(true);
			expect(answer.details).toEqual({ error: "proposal-not-found" });
			expect(answer.prose).not.toContain("Plan.md");
		}
		expect((await mcp.tool("proposal_status", { id: theirs.id, wait: 61 })).isError).toBe(true);
	});
});
