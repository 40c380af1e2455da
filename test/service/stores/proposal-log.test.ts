import { describe, expect, it } from "vitest";
import { MAX_PROPOSAL_NOTE, newProposalId, type ProposalRecord } from "../../../src/core/proposals";
import { ProposalLog, type ProposalChange } from "../../../src/service/stores/proposal-log";

function record(id: string, status: ProposalRecord["status"] = "pending", agent = "bot"): ProposalRecord {
	return {
		id,
		path: "n.md",
		agent,
		time: "2026-11-21T10:15:00.000Z",
		operation: "replace",
		baseRevision: null,
		proposedRevision: `r-${id}`,
		backupPath: `n.${id}.bak.md`,
		status,
	};
}

describe("ProposalLog", () => {
	it("lists newest first, by status, key and path", () => {
		const log = new ProposalLog();
		log.add(record("a"));
		log.add(record("b", "pending", "other"));
		log.add(record("c"));
		expect(log.list().map((r) => r.id)).toEqual(["c", "b", "a"]);
		expect(log.list({ agent: "bot" }).map((r) => r.id)).toEqual(["c", "a"]);
		log.decide("a", "rejected", "t");
		expect(log.list({ status: "pending" }).map((r) => r.id)).toEqual(["c", "b"]);
		expect(log.pendingCount()).toBe(2);
	});

	it("decides once: a decided proposal stays as it was decided", () => {
		const log = new ProposalLog();
		log.add(record("a"));
		expect(log.decide("a", "accepted", "t1", { acceptedRevision: "rev", note: "  thanks  " })).toMatchObject({
			status: "accepted",
			decidedAt: "t1",
			acceptedRevision: "rev",
			note: "thanks",
		});
		expect(log.decide("a", "rejected", "t2")).toBeUndefined();
		expect(log.get("a")).toMatchObject({ status: "accepted", decidedAt: "t1" });
		expect(log.decide("nope", "rejected", "t")).toBeUndefined();
	});

	it("cuts a long note and leaves out a blank one", () => {
		const log = new ProposalLog();
		log.add(record("a"));
		log.add(record("b"));
		expect(log.decide("a", "rejected", "t", { note: "x".repeat(MAX_PROPOSAL_NOTE + 10) })?.note).toHaveLength(
			MAX_PROPOSAL_NOTE,
		);
		expect(log.decide("b", "rejected", "t", { note: "   " })?.note).toBeUndefined();
	});

	it("replays its saved changes over its snapshot into the same log", () => {
		const log = new ProposalLog();
		const changes: ProposalChange[] = [];
		log.onSave((change) => changes.push(structuredClone(change)));
		log.add(record("a"));
		const snapshot = structuredClone(log.toSnapshot());
		log.add(record("b"));
		log.decide("a", "rejected", "t", { note: "no" });
		log.rename("n.md", "m.md");
		const again = ProposalLog.fromSnapshot(snapshot);
		again.replay(changes);
		expect(again.toSnapshot()).toEqual(log.toSnapshot());
	});

	it("keeps pending proposals over decided ones when it is full", () => {
		const log = new ProposalLog(2);
		log.add(record("a"));
		log.add(record("b", "rejected"));
		log.add(record("c"));
		expect(log.list().map((r) => r.id)).toEqual(["c", "a"]);
	});

	it("ignores records that are not proposals in a snapshot", () => {
		const log = ProposalLog.fromSnapshot({
			records: [record("a"), { id: "x" }, null, { ...record("b"), status: "maybe" }],
		});
		expect(log.list().map((r) => r.id)).toEqual(["a"]);
	});

	it("names proposals by time, sortably", () => {
		expect(newProposalId(new Date("2026-11-21T10:15:00Z"), "ab12cd34")).toBe("p-20261121-101500-ab12cd34");
	});
});
