import { describe, expect, it } from "vitest";
import { compileKeyScope } from "../../../src/core/key-scope";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { agentActor, PERSON } from "../../../src/service/notes/actor";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";

const NOTE = "one\ntwo\nthree\n";
const PROPOSED = "one\ntwo (agent)\nthree\n";

async function proposed() {
	const gateway = new MemoryGateway({ "n.md": NOTE });
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
	});
	const { id, backupPath } = await guard.proposals.propose(
		writeRequest("n.md", PROPOSED, { actor: agentActor("claude") }),
	);
	return { gateway, guard, settings, notes: guard.notes, id, backupPath };
}

describe("the person's side of proposals (AgentNotes.proposals)", () => {
	it("shows the proposal against the note it was made on", async () => {
		const { notes, id } = await proposed();
		expect(await notes.proposals.review(id)).toMatchObject({
			base: NOTE,
			mine: NOTE,
			mineRevision: revisionOf(NOTE),
			theirs: PROPOSED,
			changedSince: false,
		});
	});

	it("accepts as sent: written through the guarded writer as the person, accepted, and followed like any write", async () => {
		const { gateway, guard, notes, id, backupPath } = await proposed();
		const changes: string[] = [];
		notes.onNoteChanged(
			() => PERSON,
			(change) => changes.push(change.path),
		);
		const outcome = await notes.proposals.acceptAsPerson(id);
		expect(outcome).toMatchObject({
			kind: "accepted",
			revision: revisionOf(PROPOSED),
			record: { status: "accepted", acceptedRevision: revisionOf(PROPOSED) },
		});
		expect(gateway.notes.get("n.md")).toBe(PROPOSED);
		expect(guard.history.latest("n.md")?.source).toEqual({ kind: "user" });
		expect(changes).toContain("n.md");
		// The .bak stays: it is the agent's text as sent.
		expect(gateway.notes.get(backupPath)).toBe(PROPOSED);
	});

	it("accepts the person's edit as accepted-with-edits, with their note", async () => {
		const { gateway, notes, id } = await proposed();
		const outcome = await notes.proposals.acceptAsPerson(id, {
			text: "one\ntwo (agent, edited)\nthree\n",
			note: "tweaked the wording",
		});
		expect(outcome).toMatchObject({
			kind: "accepted",
			record: { status: "accepted-with-edits", note: "tweaked the wording" },
		});
		expect(gateway.notes.get("n.md")).toBe("one\ntwo (agent, edited)\nthree\n");
	});

	it("never overwrites a note that changed since the proposal: it hands back the three-way merge, then accepts the merge", async () => {
		const { gateway, notes, id } = await proposed();
		gateway.notes.set("n.md", "one\ntwo\nthree\nfour (you)\n");
		const outcome = await notes.proposals.acceptAsPerson(id);
		expect(outcome).toMatchObject({
			kind: "changed",
			review: { base: NOTE, mine: "one\ntwo\nthree\nfour (you)\n", theirs: PROPOSED, changedSince: true },
		});
		expect(gateway.notes.get("n.md")).toBe("one\ntwo\nthree\nfour (you)\n");
		expect(notes.proposals.get(id)?.status).toBe("pending");
		// The merge the person settled, against the note they saw.
		const merged = "one\ntwo (agent)\nthree\nfour (you)\n";
		const accepted = await notes.proposals.acceptAsPerson(id, {
			text: merged,
			against: revisionOf("one\ntwo\nthree\nfour (you)\n"),
		});
		expect(accepted).toMatchObject({ kind: "accepted", record: { status: "accepted-with-edits" } });
		expect(gateway.notes.get("n.md")).toBe(merged);
	});

	it("counts a merge that kept the agent's text exactly as accepted as sent", async () => {
		const { gateway, notes, id } = await proposed();
		gateway.notes.set("n.md", "one\ntwo\nthree (you)\n");
		const outcome = await notes.proposals.acceptAsPerson(id, {
			text: PROPOSED,
			against: revisionOf("one\ntwo\nthree (you)\n"),
		});
		expect(outcome).toMatchObject({ kind: "accepted", record: { status: "accepted" } });
	});

	it("re-creates a note deleted since only when the person accepts against no note", async () => {
		const { gateway, notes, id } = await proposed();
		gateway.notes.delete("n.md");
		expect(await notes.proposals.acceptAsPerson(id)).toMatchObject({
			kind: "changed",
			review: { mine: null, mineRevision: null },
		});
		expect(await notes.proposals.acceptAsPerson(id, { against: null })).toMatchObject({ kind: "accepted" });
		expect(gateway.notes.get("n.md")).toBe(PROPOSED);
	});

	it("rejects with a note: nothing is written, and a decided proposal cannot be decided again", async () => {
		const { gateway, notes, id } = await proposed();
		expect(await notes.proposals.rejectAsPerson(id, "Keep the old wording.")).toMatchObject({
			kind: "rejected",
			record: { status: "rejected", note: "Keep the old wording." },
		});
		expect(gateway.notes.get("n.md")).toBe(NOTE);
		expect(await notes.proposals.acceptAsPerson(id)).toMatchObject({ kind: "failed" });
		expect(await notes.proposals.rejectAsPerson(id)).toMatchObject({ kind: "failed" });
		expect(gateway.notes.get("n.md")).toBe(NOTE);
	});

	it("writes once when accept is clicked twice at once", async () => {
		const { guard, notes, id } = await proposed();
		const outcomes = await Promise.all([notes.proposals.acceptAsPerson(id), notes.proposals.acceptAsPerson(id)]);
		expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(["accepted", "failed"]);
		expect(guard.history.entries("n.md").filter((entry) => entry.revision === revisionOf(PROPOSED))).toHaveLength(1);
	});

	it("finds the proposed text in the .bak when the kept copy is gone, and says so when both are", async () => {
		const { gateway, guard, notes, id, backupPath } = await proposed();
		await guard.bases.setCap(0);
		expect((await notes.proposals.review(id))?.theirs).toBe(PROPOSED);
		gateway.notes.set(backupPath, "changed by hand\n");
		expect(await notes.proposals.acceptAsPerson(id)).toMatchObject({
			kind: "failed",
			message: expect.stringContaining(backupPath),
		});
		expect(gateway.notes.get("n.md")).toBe(NOTE);
	});

	it("shows an agent only its own key's proposals: another key's id is unknown to it", async () => {
		const { guard, notes, id } = await proposed();
		const mine = await guard.proposals.propose(writeRequest("n.md", "other\n", { actor: agentActor("other") }));
		expect(notes.proposals.listFor(agentActor("claude")).map((record) => record.id)).toEqual([id]);
		expect(notes.proposals.getFor(agentActor("claude"), id)?.id).toBe(id);
		expect(notes.proposals.getFor(agentActor("claude"), mine.id)).toBeUndefined();
		expect(notes.proposals.listFor(agentActor("other"), "rejected")).toEqual([]);
	});

	it("stops showing a key its proposal once the key may no longer see the note (its read list changed)", async () => {
		const { notes, id } = await proposed();
		const narrowed = compileKeyScope(
			"claude",
			{ read: ["Other/**"], write: [], propose: ["Other/**"] },
			{ caseInsensitive: false },
		);
		if (!narrowed.ok) throw new Error(narrowed.problem.message);
		const now = agentActor("claude", undefined, undefined, narrowed.scope);
		expect(notes.proposals.listFor(now)).toEqual([]);
		expect(notes.proposals.getFor(now, id)).toBeUndefined();
		// The person still sees it, and the key sees it again once its list covers the note.
		expect(notes.proposals.get(id)?.id).toBe(id);
		expect(notes.proposals.listFor(agentActor("claude")).map((record) => record.id)).toEqual([id]);
	});

	it("moves an accepted proposal's untouched .bak to the trash with the trash setting, and keeps a rejected one's", async () => {
		const accepted = await proposed();
		accepted.settings.backupAfterResolve = "trash";
		expect(await accepted.notes.proposals.acceptAsPerson(accepted.id)).toMatchObject({ kind: "accepted" });
		expect(accepted.gateway.notes.has(accepted.backupPath)).toBe(false);
		// Rejected: the .bak is the only copy of the agent's text, so it stays whatever the setting.
		const rejected = await proposed();
		rejected.settings.backupAfterResolve = "trash";
		await rejected.notes.proposals.rejectAsPerson(rejected.id, "no");
		expect(rejected.gateway.notes.get(rejected.backupPath)).toBe(PROPOSED);
	});

	it("keeps an accepted proposal's .bak the person edited, and every .bak with the keep setting", async () => {
		const edited = await proposed();
		edited.settings.backupAfterResolve = "trash";
		edited.gateway.notes.set(edited.backupPath, PROPOSED + "my aside\n");
		expect(await edited.notes.proposals.acceptAsPerson(edited.id)).toMatchObject({ kind: "accepted" });
		expect(edited.gateway.notes.get(edited.backupPath)).toBe(PROPOSED + "my aside\n");
		const kept = await proposed();
		expect(await kept.notes.proposals.acceptAsPerson(kept.id)).toMatchObject({ kind: "accepted" });
		expect(kept.gateway.notes.get(kept.backupPath)).toBe(PROPOSED);
	});

	it("wakes a long-poll when the person decides", async () => {
		const { notes, id } = await proposed();
		const record = notes.proposals.getFor(agentActor("claude"), id)!;
		const waiting = notes.proposals.awaitDecision(record, 30_000, "claude");
		await notes.proposals.rejectAsPerson(id, "no");
		expect(await waiting).toMatchObject({ kind: "settled", record: { status: "rejected", note: "no" } });
	});
});
