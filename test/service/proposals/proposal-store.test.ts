import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import type { PatchInstruction } from "../../../src/core/patch";
import { applyPatch } from "../../../src/core/patch";
import { nodeTimers } from "../../../src/headless/node-timers";
import { agentActor } from "../../../src/service/notes/actor";
import { ProposalNotMade } from "../../../src/service/proposals/proposal-store";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";

const NOTE = "# Plan\n\n## Goals\nship it\n";

async function open(
	notes: Record<string, string> = { "Plan.md": NOTE },
	storage = new MemoryStorage(),
	gateway = new MemoryGateway(notes),
) {
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage,
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
	});
	return { guard, gateway, storage };
}

async function notMade(promise: Promise<unknown>) {
	const error = await promise.then(
		() => null,
		(thrown: unknown) => thrown,
	);
	if (!(error instanceof ProposalNotMade)) throw new Error(`expected ProposalNotMade, got ${String(error)}`);
	return error.outcome;
}

const heading: PatchInstruction = { operation: "append", targetType: "heading", target: "Plan::Goals" };

describe("ProposalStore.propose", () => {
	it("keeps a replace as a .bak, byte for byte, with a pending record, and leaves the note as it was", async () => {
		const { guard, gateway } = await open();
		const body = "\uFEFF# Plan\r\n\r\nnew plan, no final newline";
		const outcome = await guard.proposals.propose(
			writeRequest("Plan.md", body, { basedOn: NOTE, actor: agentActor("claude") }),
		);
		expect(outcome).toMatchObject({ kind: "proposed", path: "Plan.md" });
		expect(outcome.id).toMatch(/^p-\d{8}-\d{6}-[0-9a-f]{8}$/);
		expect(outcome.backupPath).toMatch(/^Plan\.\d{8}-\d{6}\.bak\.md$/);
		expect(gateway.notes.get("Plan.md")).toBe(NOTE);
		expect(gateway.notes.get(outcome.backupPath)).toBe(body);
		expect(guard.proposals.log.get(outcome.id)).toMatchObject({
			path: "Plan.md",
			agent: "claude",
			operation: "replace",
			status: "pending",
			baseRevision: revisionOf(NOTE),
			proposedRevision: revisionOf(body),
			backupPath: outcome.backupPath,
		});
		expect(Date.parse(guard.proposals.log.get(outcome.id)!.time)).not.toBeNaN();
	});

	it("works out an append, a patch and an edit on the note as it is now", async () => {
		const { guard, gateway } = await open();
		const appended = await guard.proposals.propose(writeRequest("Plan.md", { kind: "append", body: "more\n" }));
		expect(gateway.notes.get(appended.backupPath)).toBe(NOTE + "more\n");
		const patched = await guard.proposals.propose(
			writeRequest(
				"Plan.md",
				{ kind: "patch", apply: (current) => applyPatch(current, heading, "and test it\n") },
				{ basedOn: NOTE },
			),
		);
		expect(gateway.notes.get(patched.backupPath)).toContain("ship it\nand test it\n");
		const edited = await guard.proposals.propose(
			writeRequest("Plan.md", { kind: "edit", edits: [{ old: "ship it", new: "ship it on Friday" }] }),
		);
		expect(gateway.notes.get(edited.backupPath)).toBe("# Plan\n\n## Goals\nship it on Friday\n");
		expect(guard.proposals.log.list().map((record) => record.operation)).toEqual(["edit", "patch", "append"]);
		expect(gateway.notes.get("Plan.md")).toBe(NOTE);
	});

	it("proposes a new note (no base) and needs no token for it", async () => {
		const { guard, gateway } = await open();
		const outcome = await guard.proposals.propose(writeRequest("Ideas/New.md", "fresh\n"));
		expect(gateway.notes.has("Ideas/New.md")).toBe(false);
		expect(guard.proposals.log.get(outcome.id)).toMatchObject({ baseRevision: null, status: "pending" });
	});

	it("does not stop at a missing or stale token: the person reviews it, so it is made against the note now", async () => {
		const { guard } = await open();
		const tokenless = await guard.proposals.propose(writeRequest("Plan.md", "short\n"));
		expect(guard.proposals.log.get(tokenless.id)?.baseRevision).toBe(revisionOf(NOTE));
		const stale = await guard.proposals.propose(
			writeRequest("Plan.md", "other\n", { revision: revisionOf("never kept\n") }),
		);
		expect(guard.proposals.log.get(stale.id)?.baseRevision).toBe(revisionOf(NOTE));
	});

	it("makes a replace based on an older kept revision against that revision, so the review merges what changed since", async () => {
		const { guard, gateway } = await open();
		await guard.tracker.served((await gateway.read("Plan.md"))!);
		gateway.notes.set("Plan.md", NOTE + "the person's line\n");
		const outcome = await guard.proposals.propose(
			writeRequest("Plan.md", "# Plan\n\n## Goals\nship it today\n", { basedOn: NOTE }),
		);
		expect(guard.proposals.log.get(outcome.id)?.baseRevision).toBe(revisionOf(NOTE));
		const review = (await guard.notes.proposals.review(outcome.id))!;
		expect(review).toMatchObject({
			base: NOTE,
			mine: NOTE + "the person's line\n",
			theirs: "# Plan\n\n## Goals\nship it today\n",
			changedSince: true,
		});
	});

	it("refuses what the writer would refuse, and keeps nothing for it", async () => {
		const { guard, gateway } = await open();
		const before = new Map(gateway.notes);
		expect(
			await notMade(
				guard.proposals.propose(writeRequest("Plan.md", { kind: "edit", edits: [{ old: "not there", new: "x" }] })),
			),
		).toMatchObject({ kind: "inapplicable", reason: "target-not-found" });
		expect(
			await notMade(
				guard.proposals.propose(writeRequest("Gone.md", { kind: "edit", edits: [{ old: "a", new: "b" }] })),
			),
		).toMatchObject({ kind: "refused", refusal: { reason: "not-found" } });
		expect(await notMade(guard.proposals.propose(writeRequest("Plan.md", "x\n", { createOnly: true })))).toMatchObject({
			kind: "refused",
			refusal: { reason: "exists" },
		});
		expect(await notMade(guard.proposals.propose(writeRequest("Plan.md", "")))).toMatchObject({
			kind: "refused",
			refusal: { reason: "empty-body" },
		});
		expect(await notMade(guard.proposals.propose(writeRequest("Plan.md", NOTE)))).toMatchObject({
			kind: "unchanged",
			revision: revisionOf(NOTE),
		});
		expect(
			await notMade(
				guard.proposals.propose({ ...writeRequest("Plan.md", "x\n"), ifMatch: { kind: "malformed", raw: "nope" } }),
			),
		).toMatchObject({ kind: "refused", refusal: { reason: "malformed-condition" } });
		expect(gateway.notes).toEqual(before);
		expect(guard.proposals.log.list()).toEqual([]);
	});

	it("never proposes a delete, and never the person's change", async () => {
		const { guard } = await open();
		await expect(
			guard.proposals.propose(writeRequest("Plan.md", { kind: "delete" }, { basedOn: NOTE })),
		).rejects.toThrow(/delete/);
		await expect(
			guard.proposals.propose(writeRequest("Plan.md", "x\n", { actor: { kind: "person" } })),
		).rejects.toThrow(/agent/);
	});

	it("answers a retry of the same pending proposal with that proposal (one .bak)", async () => {
		const { guard, gateway } = await open();
		const first = await guard.proposals.propose(writeRequest("Plan.md", "again\n"));
		const second = await guard.proposals.propose(writeRequest("Plan.md", "again\n"));
		expect(second).toEqual(first);
		expect([...gateway.notes.keys()].filter((path) => path.endsWith(".bak.md"))).toHaveLength(1);
		const other = await guard.proposals.propose(writeRequest("Plan.md", "again\n", { actor: agentActor("other") }));
		expect(other.id).not.toBe(first.id);
	});

	it("saves the record before answering, and it survives a restart (with and without a clean close)", async () => {
		const storage = new MemoryStorage();
		const gateway = new MemoryGateway({ "Plan.md": NOTE });
		const { guard } = await open({}, storage, gateway);
		const outcome = await guard.proposals.propose(writeRequest("Plan.md", "kept\n"));
		// Appended and saved already: a crash now (no close) loses nothing.
		expect(storage.files.get("proposals.jsonl")).toContain(outcome.id);
		const crashed = await open({}, storage, gateway);
		expect(crashed.guard.proposals.log.get(outcome.id)).toMatchObject({
			status: "pending",
			backupPath: outcome.backupPath,
		});
		await crashed.guard.notes.proposals.rejectAsPerson(outcome.id, "not now");
		await crashed.guard.close();
		expect(storage.files.has("proposals.jsonl")).toBe(false);
		const restarted = await open({}, storage, gateway);
		expect(restarted.guard.proposals.log.get(outcome.id)).toMatchObject({ status: "rejected", note: "not now" });
	});

	it("follows a note that is moved", async () => {
		const { guard, gateway } = await open();
		const outcome = await guard.proposals.propose(writeRequest("Plan.md", "moved\n"));
		const moved = await guard.writer.move({
			from: "Plan.md",
			to: "Archive/Plan.md",
			ifMatch: { kind: "tags", tags: [{ weak: false, opaque: revisionOf(NOTE) }] },
			overwrite: false,
			destinationIfMatch: { kind: "absent" },
			actor: { kind: "person" },
		});
		expect(moved.kind).toBe("moved");
		expect(gateway.notes.has("Archive/Plan.md")).toBe(true);
		expect(guard.proposals.log.get(outcome.id)?.path).toBe("Archive/Plan.md");
	});
});
