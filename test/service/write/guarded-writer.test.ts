import { describe, expect, it } from "vitest";
import { nodeTimers } from "../../../src/headless/node-timers";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";
import { agentActor } from "../../../src/service/notes/actor";
import { applyPatch } from "../../../src/core/patch";

async function open(initial: Record<string, string>) {
	const gateway = new MemoryGateway(initial);
	const settings = structuredClone(DEFAULT_SETTINGS);
	const storage = new MemoryStorage();
	const guard = await openRevisionGuard({
		gateway,
		storage,
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => Date.UTC(2026, 10, 21, 10, 15, 0),
	});
	return { gateway, guard, settings, storage };
}

describe("GuardedWriter", () => {
	it("saves the conflict record once per refusal, as one appended line, before it answers", async () => {
		const { guard, storage } = await open({ "a.md": "new\n" });
		const saves: string[] = [];
		const append = storage.append.bind(storage);
		storage.append = async (name, text) => {
			saves.push(text);
			await append(name, text);
		};
		const outcome = await guard.writer.write(writeRequest("a.md", "agent\n", { basedOn: "old\n" }));
		expect(outcome.kind).toBe("refused");
		expect(saves).toHaveLength(1);
		expect(saves[0]!.split("\n")).toHaveLength(2);
		expect(saves[0]).toContain(outcome.kind === "refused" ? outcome.conflict!.id : "");
		// The whole snapshot is not rewritten for a refusal.
		expect(storage.files.has("conflicts.json")).toBe(false);
	});

	it("still refuses a stale write when the .bak cannot be written, and says why", async () => {
		const { gateway, guard } = await open({ "a.md": "now\n" });
		gateway.failCreates = new Error("disk full");
		const outcome = await guard.writer.write(writeRequest("a.md", "agent\n", { basedOn: "old\n" }));
		expect(outcome.kind).toBe("refused");
		if (outcome.kind !== "refused") return;
		expect(outcome.backupError).toBe("disk full");
		expect(outcome.conflict?.backupPath).toBeNull();
		expect(gateway.notes.get("a.md")).toBe("now\n");
	});

	it("names the .bak after the note and the UTC time, and keeps names unique", async () => {
		const { guard } = await open({ "notes/Plan.md": "now\n" });
		// Two different bodies: the same body again reuses its .bak (test/service/refused-body-dedup.test.ts).
		const write = (body: string) => guard.writer.write(writeRequest("notes/Plan.md", body, { basedOn: "old\n" }));
		const first = await write("agent\n");
		const second = await write("agent, second try\n");
		expect(first.kind === "refused" && first.conflict?.backupPath).toBe("notes/Plan.20261121-101500.bak.md");
		expect(second.kind === "refused" && second.conflict?.backupPath).toBe("notes/Plan.20261121-101500-2.bak.md");
	});

	it("puts the .bak in the backup folder when one is set, mirroring the note's folders", async () => {
		const { guard, settings } = await open({ "notes/Plan.md": "now\n" });
		settings.backupFolder = "Backups";
		const outcome = await guard.writer.write(writeRequest("notes/Plan.md", "agent\n", { basedOn: "old\n" }));
		expect(outcome.kind === "refused" && outcome.conflict?.backupPath).toBe(
			"Backups/notes/Plan.20261121-101500.bak.md",
		);
	});

	it("serializes concurrent writes to one note so exactly one holder of a token wins", async () => {
		const { guard, gateway } = await open({ "a.md": "base\n" });
		const attempts = Array.from({ length: 20 }, (_, i) =>
			guard.writer.write(writeRequest("a.md", `writer ${i}\n`, { basedOn: "base\n", actor: agentActor(`w${i}`) })),
		);
		const outcomes = await Promise.all(attempts);
		const winners = outcomes.filter((outcome) => outcome.kind === "written");
		expect(winners).toHaveLength(1);
		expect(outcomes.filter((outcome) => outcome.kind === "refused")).toHaveLength(19);
		expect(gateway.notes.get("a.md")).toMatch(/^writer \d+\n$/);
	});

	it("does not keep a .bak when the refused body equals the note", async () => {
		const { guard, gateway } = await open({ "a.md": "same\n" });
		const outcome = await guard.writer.write(writeRequest("a.md", "same\n", { createOnly: true }));
		expect(outcome.kind).toBe("refused");
		expect(outcome.kind === "refused" && outcome.conflict).toBeNull();
		expect([...gateway.notes.keys()]).toEqual(["a.md"]);
	});
});

describe("GuardedWriter with exact edits", () => {
	it("lands two parallel edits to different parts of a note, even from a client that read an older revision", async () => {
		const { guard, gateway } = await open({ "a.md": "one\ntwo\nthree\n" });
		const reader = agentActor("bot", "client-1");
		guard.reads.record("client-1", "a.md", "an-old-revision", Date.UTC(2026, 10, 21, 10, 15, 0));
		const [first, second] = await Promise.all([
			guard.writer.write(
				writeRequest("a.md", { kind: "edit", edits: [{ old: "one", new: "ONE" }] }, { actor: reader }),
			),
			guard.writer.write(writeRequest("a.md", { kind: "edit", edits: [{ old: "three", new: "THREE" }] })),
		]);
		expect([first.kind, second.kind]).toEqual(["written", "written"]);
		expect(gateway.notes.get("a.md")).toBe("ONE\ntwo\nTHREE\n");
	});

	it("keeps a stale edit's result as a .bak when a revision was sent", async () => {
		const { guard, gateway } = await open({ "a.md": "one\ntwo\n" });
		const outcome = await guard.writer.write(
			writeRequest("a.md", { kind: "edit", edits: [{ old: "two", new: "TWO" }] }, { basedOn: "older\n" }),
		);
		expect(outcome.kind).toBe("refused");
		const backup = outcome.kind === "refused" ? outcome.conflict?.backupPath : null;
		expect(gateway.notes.get(backup!)).toBe("one\nTWO\n");
	});
});

describe("GuardedWriter keeps what a stale patch or edit meant, even when it no longer applies", () => {
	// Before: the .bak was the patch applied to the note as it is now, and when the person had meanwhile renamed the
	// heading (or changed the edited text) there was nothing to apply it to, so the refusal kept nothing at all.
	it("keeps a stale patch applied to the revision the agent read, when the note now lacks its target", async () => {
		const read = "# Plan\n## Next\n- one\n";
		const { guard, gateway } = await open({ "a.md": read });
		const agent = agentActor("bot", "client-1");
		await guard.notes.read(agent, "a.md");
		gateway.notes.set("a.md", "# Plan\n## Soon\n- one\n- person\n");
		const instruction = { operation: "append", targetType: "heading", target: "Plan::Next" } as const;
		const outcome = await guard.writer.write(
			writeRequest(
				"a.md",
				{ kind: "patch", apply: (current) => applyPatch(current, instruction, "- agent\n") },
				{ basedOn: read, actor: agent },
			),
		);
		expect(outcome.kind === "refused" && outcome.refusal.reason).toBe("stale");
		const backup = outcome.kind === "refused" ? outcome.conflict?.backupPath : null;
		expect(gateway.notes.get(backup!)).toBe("# Plan\n## Next\n- one\n- agent\n");
	});

	it("keeps a stale edit applied to the revision the agent read, when its old text is gone from the note", async () => {
		const read = "one\ntwo\n";
		const { guard, gateway } = await open({ "a.md": read });
		const agent = agentActor("bot", "client-1");
		await guard.notes.read(agent, "a.md");
		gateway.notes.set("a.md", "one\n2\n");
		const outcome = await guard.writer.write(
			writeRequest("a.md", { kind: "edit", edits: [{ old: "two", new: "TWO" }] }, { basedOn: read, actor: agent }),
		);
		const backup = outcome.kind === "refused" ? outcome.conflict?.backupPath : null;
		expect(gateway.notes.get(backup!)).toBe("one\nTWO\n");
	});
});
