/** How `proposals list` and `show` word one proposal (the commands themselves: proposals-command.test.ts). */
import { describe, expect, it } from "vitest";
import type { ProposalRecord } from "../../src/core/proposals";
import { describeProposal, noSuchProposal } from "../../src/headless/proposals-view";

const PENDING: ProposalRecord = {
	id: "p-1",
	path: "Inbox.md",
	agent: "agent",
	time: "2026-01-01T10:00:00.000Z",
	operation: "replace",
	baseRevision: null,
	proposedRevision: "sha256:p",
	backupPath: "Inbox.proposal.bak.md",
	status: "pending",
};

describe("a proposal in words", () => {
	it("gives a pending proposal's id, status, time, note, agent, operation and .bak on one line", () => {
		expect(describeProposal(PENDING)).toBe(
			"p-1  pending  2026-01-01T10:00:00.000Z  Inbox.md  from agent: replace, kept in Inbox.proposal.bak.md",
		);
	});

	it("adds when a decided one was decided, and the person's note, quoted", () => {
		const rejected = {
			...PENDING,
			status: "rejected",
			decidedAt: "2026-01-02T09:00:00.000Z",
			note: 'not "now"',
		} as const;
		expect(describeProposal(rejected)).toBe(
			`${describeProposal(PENDING).replace("pending", "rejected")} (rejected 2026-01-02T09:00:00.000Z: "not \\"now\\"")`,
		);
		expect(describeProposal({ ...PENDING, status: "accepted" })).toMatch(/ \(accepted\)$/);
	});

	it("names an unknown id and the command that lists the real ones", () => {
		expect(noSuchProposal("p-nope")).toBe(
			'There is no proposal "p-nope"; nothing was changed. List them with: proposals list.',
		);
	});
});
