import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";
import { agentActor } from "../../../src/service/notes/actor";

async function conflictScenario() {
	const gateway = new MemoryGateway({ "n.md": "one\ntwo\nthree\n" });
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
	});
	const read = (await gateway.read("n.md"))!;
	await guard.tracker.served(read);
	gateway.notes.set("n.md", "one\ntwo (you)\nthree\n");
	const outcome = await guard.writer.write(
		writeRequest("n.md", "one\ntwo (agent)\nthree\n", { basedOn: read.content }),
	);
	if (outcome.kind !== "refused" || !outcome.conflict) throw new Error("expected a conflict");
	return { gateway, guard, settings, id: outcome.conflict.id, backupPath: outcome.conflict.backupPath! };
}

describe("ConflictResolver", () => {
	it('settles a conflict when an agent, even one whose key is named "you", writes on top of the revision it was refused against', async () => {
		const { guard, id } = await conflictScenario();
		const current = guard.conflicts.get(id)!.currentRevision!;
		const outcome = await guard.writer.write(
			writeRequest("n.md", "one\ntwo (you) and (agent)\nthree\n", { revision: current, actor: agentActor("you") }),
		);
		expect(outcome.kind).toBe("written");
		expect(guard.conflicts.get(id)).toMatchObject({ status: "resolved", resolvedBy: "you" });
	});

	it("gathers base, the note now and the proposal", async () => {
		const { guard, id } = await conflictScenario();
		const sides = (await guard.resolver.sides(id))!;
		expect(sides).toMatchObject({
			base: "one\ntwo\nthree\n",
			mine: "one\ntwo (you)\nthree\n",
			theirs: "one\ntwo (agent)\nthree\n",
			mineRevision: revisionOf("one\ntwo (you)\nthree\n"),
		});
	});

	it("finds the proposal in the .bak when the retained copy is gone", async () => {
		const { guard, id } = await conflictScenario();
		await guard.bases.setCap(0);
		expect((await guard.resolver.sides(id))!.theirs).toBe("one\ntwo (agent)\nthree\n");
	});

	it("saves a resolution through the guard, credits the person, and marks the conflict resolved", async () => {
		const { gateway, guard, id } = await conflictScenario();
		const outcome = await guard.resolver.save(id, "one\ntwo (both)\nthree\n", revisionOf("one\ntwo (you)\nthree\n"));
		expect(outcome).toEqual({ kind: "saved", revision: revisionOf("one\ntwo (both)\nthree\n") });
		expect(gateway.notes.get("n.md")).toBe("one\ntwo (both)\nthree\n");
		expect(guard.conflicts.get(id)).toMatchObject({ status: "resolved", agentTaken: "partial", resolvedBy: "you" });
		expect(guard.history.latest("n.md")?.source).toEqual({ kind: "user" });
	});

	it("never overwrites a note that changed while resolving: it hands back the new sides", async () => {
		const { gateway, guard, id } = await conflictScenario();
		gateway.notes.set("n.md", "one\ntwo (you, later)\nthree\n");
		const outcome = await guard.resolver.save(id, "resolved\n", revisionOf("one\ntwo (you)\nthree\n"));
		expect(outcome.kind).toBe("changed");
		expect(outcome.kind === "changed" && outcome.sides.mine).toBe("one\ntwo (you, later)\nthree\n");
		expect(gateway.notes.get("n.md")).toBe("one\ntwo (you, later)\nthree\n");
		expect(guard.conflicts.get(id)?.status).toBe("open");
	});

	it("moves the untouched .bak to the trash after resolving when set to, and keeps an edited one", async () => {
		const first = await conflictScenario();
		first.settings.backupAfterResolve = "trash";
		await first.guard.resolver.save(first.id, "x\n", revisionOf("one\ntwo (you)\nthree\n"));
		expect(first.gateway.notes.has(first.backupPath)).toBe(false);

		const second = await conflictScenario();
		second.settings.backupAfterResolve = "trash";
		second.gateway.notes.set(second.backupPath, "edited by the person\n");
		await second.guard.resolver.save(second.id, "x\n", revisionOf("one\ntwo (you)\nthree\n"));
		expect(second.gateway.notes.get(second.backupPath)).toBe("edited by the person\n");
	});

	it("keeps the .bak by default", async () => {
		const { gateway, guard, id, backupPath } = await conflictScenario();
		await guard.resolver.save(id, "x\n", revisionOf("one\ntwo (you)\nthree\n"));
		expect(gateway.notes.has(backupPath)).toBe(true);
	});

	it("previews the automatic merge with markers", async () => {
		const { guard, id } = await conflictScenario();
		const preview = (await guard.resolver.preview(id))!;
		expect(preview.result.conflicts).toBe(1);
		expect(preview.text).toBe("one\n<<<<<<< mine\ntwo (you)\n=======\ntwo (agent)\n>>>>>>> agent\nthree\n");
	});
});

describe("ConflictResolver with the person's saves", () => {
	it("never turns a refused save of the person into a conflict or a .bak", async () => {
		const { gateway, guard, id } = await conflictScenario();
		gateway.notes.set("n.md", "one\ntwo (you, later)\nthree\n");
		const before = [...gateway.notes.keys()].sort();
		const outcome = await guard.resolver.save(id, "resolved\n", revisionOf("one\ntwo (you)\nthree\n"));
		expect(outcome.kind).toBe("changed");
		expect([...gateway.notes.keys()].sort()).toEqual(before);
		expect(guard.conflicts.list()).toHaveLength(1);
	});

	it("saves even with a read validity window on: the window is about agents' reads", async () => {
		const { gateway, guard, settings, id } = await conflictScenario();
		settings.readValidityMinutes = 30;
		const outcome = await guard.resolver.save(id, "resolved\n", revisionOf("one\ntwo (you)\nthree\n"));
		expect(outcome.kind).toBe("saved");
		expect(gateway.notes.get("n.md")).toBe("resolved\n");
	});
});
