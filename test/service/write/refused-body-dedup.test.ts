/** The same refused body sent again within minutes keeps no second identical .bak: the answer names the first one. */
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { agentActor } from "../../../src/service/notes/actor";
import { SAME_BACKUP_MS } from "../../../src/service/write/refused-body";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";

async function open(initial: Record<string, string>) {
	const gateway = new MemoryGateway(initial);
	const clock = { now: Date.UTC(2026, 10, 21, 10, 15, 0) };
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => clock.now,
	});
	const backups = () => [...gateway.notes.keys()].filter((path) => path.endsWith(".bak.md"));
	return { gateway, guard, clock, backups, settings };
}

const refused = (
	outcome: Awaited<ReturnType<import("../../../src/service/write/guarded-writer").GuardedWriter["write"]>>,
) => {
	expect(outcome.kind).toBe("refused");
	return outcome.kind === "refused" ? outcome : null!;
};

describe("a refused body sent again", () => {
	it("names the existing .bak and conflict, without a second copy, when the very same refusal repeats", async () => {
		const { guard, backups } = await open({ "a.md": "now\n" });
		const write = () => guard.writer.write(writeRequest("a.md", "agent\n", { basedOn: "old\n" }));
		const first = refused(await write());
		const second = refused(await write());
		expect(second.conflict?.backupPath).toBe(first.conflict?.backupPath);
		expect(second.conflict?.id).toBe(first.conflict?.id);
		expect(backups()).toHaveLength(1);
		expect(guard.conflicts.list()).toHaveLength(1);
	});

	it("reuses the .bak with a new record when the note moved on between the two refusals", async () => {
		const { guard, gateway, backups } = await open({ "a.md": "now\n" });
		const first = refused(await guard.writer.write(writeRequest("a.md", "agent\n", { basedOn: "old\n" })));
		gateway.notes.set("a.md", "later\n");
		const second = refused(await guard.writer.write(writeRequest("a.md", "agent\n", { basedOn: "old\n" })));
		expect(second.conflict?.backupPath).toBe(first.conflict?.backupPath);
		expect(second.conflict?.id).not.toBe(first.conflict?.id);
		expect(backups()).toHaveLength(1);
	});

	it("keeps a shared .bak while another open conflict still names it, even when resolving one trashes backups", async () => {
		const { guard, gateway, settings } = await open({ "a.md": "now\n" });
		const first = refused(await guard.writer.write(writeRequest("a.md", "agent\n", { basedOn: "old\n" })));
		gateway.notes.set("a.md", "later\n");
		const second = refused(await guard.writer.write(writeRequest("a.md", "agent\n", { basedOn: "old\n" })));
		expect(second.conflict?.backupPath).toBe(first.conflict?.backupPath);
		settings.backupAfterResolve = "trash";
		const saved = await guard.resolver.save(first.conflict!.id, "merged by the person\n", revisionOf("later\n"));
		expect(saved.kind).toBe("saved");
		expect(guard.conflicts.get(second.conflict!.id)?.status).toBe("open");
		expect(gateway.notes.get(second.conflict!.backupPath!)).toBe("agent\n");
	});

	it("makes a new .bak after the window, for another agent, or when the first .bak was changed", async () => {
		const { guard, gateway, clock, backups } = await open({ "a.md": "now\n" });
		const write = (name = "test-agent") =>
			guard.writer.write(writeRequest("a.md", "agent\n", { basedOn: "old\n", actor: agentActor(name) }));
		const first = refused(await write());
		refused(await write("other-agent"));
		expect(backups()).toHaveLength(2);
		gateway.notes.set(first.conflict!.backupPath!, "the person edited the backup\n");
		refused(await write());
		expect(backups()).toHaveLength(3);
		clock.now += SAME_BACKUP_MS + 1;
		refused(await write());
		expect(backups()).toHaveLength(4);
	});
});
