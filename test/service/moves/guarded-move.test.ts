/**
 * The guarded move (guarded-move.ts, through GuardedWriter.move) against the writes it races: both notes are locked,
 * so whichever comes first, nothing anyone wrote is lost, and a refused move keeps nothing because it carried nothing.
 */
import { describe, expect, it } from "vitest";
import { parseEntityTagCondition, revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { agentActor } from "../../../src/service/notes/actor";
import type { MoveRequest } from "../../../src/service/moves/move-request";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";
import type { RequestContext } from "../../../src/http/router";
import { relocationRefusal } from "../../../src/http/routes/relocation-refusal";
import { relocationRefusalResult } from "../../../src/mcp/tools/relocation";

let clock = Date.UTC(2026, 10, 21, 10, 0, 0);

async function open(initial: Record<string, string>) {
	const gateway = new MemoryGateway(initial);
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => clock,
	});
	return { gateway, guard, settings };
}

function moveRequest(
	from: string,
	to: string,
	basedOn: string | undefined,
	extra: Partial<MoveRequest> = {},
): MoveRequest {
	return {
		from,
		to,
		ifMatch: parseEntityTagCondition(basedOn === undefined ? undefined : `"${revisionOf(basedOn)}"`),
		overwrite: false,
		destinationIfMatch: { kind: "absent" },
		actor: agentActor("mover", "mover-client"),
		...extra,
	};
}

describe("a move and the writes it races", () => {
	it("a write of the note that lands first makes the move stale: nothing moved, the write kept", async () => {
		const { gateway, guard } = await open({ "a.md": "one\n" });
		const [written, moved] = await Promise.all([
			guard.writer.write(writeRequest("a.md", "two\n", { basedOn: "one\n" })),
			guard.writer.move(moveRequest("a.md", "b.md", "one\n")),
		]);
		expect(written.kind).toBe("written");
		expect(moved).toMatchObject({ kind: "refused", side: "source", refusal: { reason: "stale" } });
		expect(gateway.notes.get("a.md")).toBe("two\n");
		expect(gateway.notes.has("b.md")).toBe(false);
		expect(guard.conflicts.list()).toEqual([]);
	});

	it("a write of the note that comes after the move finds it gone: refused and kept as .bak, never recreated blindly", async () => {
		const { gateway, guard } = await open({ "a.md": "one\n" });
		const [moved, written] = await Promise.all([
			guard.writer.move(moveRequest("a.md", "b.md", "one\n")),
			guard.writer.write(writeRequest("a.md", "two\n", { basedOn: "one\n" })),
		]);
		expect(moved.kind).toBe("moved");
		expect(written).toMatchObject({ kind: "refused", refusal: { reason: "stale" }, currentRevision: null });
		expect(gateway.notes.get("b.md")).toBe("one\n");
		expect(gateway.notes.has("a.md")).toBe(false);
		const kept = written.kind === "refused" ? written.conflict?.backupPath : undefined;
		expect(kept && gateway.notes.get(kept)).toBe("two\n");
	});

	it("a note created at the destination meanwhile is never replaced, whichever comes first", async () => {
		const { gateway, guard } = await open({ "a.md": "one\n" });
		const [created, moved] = await Promise.all([
			guard.writer.write(writeRequest("b.md", "theirs\n", { createOnly: true })),
			guard.writer.move(moveRequest("a.md", "b.md", "one\n")),
		]);
		expect(created.kind).toBe("written");
		expect(moved).toMatchObject({ kind: "refused", side: "destination", refusal: { reason: "destination-exists" } });
		expect(gateway.notes.get("b.md")).toBe("theirs\n");
		const { gateway: second, guard: other } = await open({ "a.md": "one\n" });
		const movedFirst = await other.writer.move(moveRequest("a.md", "b.md", "one\n"));
		const createdAfter = await other.writer.write(writeRequest("b.md", "theirs\n", { createOnly: true }));
		expect(movedFirst.kind).toBe("moved");
		expect(createdAfter).toMatchObject({ kind: "refused", refusal: { reason: "exists" } });
		expect(second.notes.get("b.md")).toBe("one\n");
	});

	it("two moves that swap two notes' paths never wait on each other for ever, and lose neither note", async () => {
		const { gateway, guard } = await open({ "a.md": "A\n", "b.md": "B\n" });
		const outcomes = await Promise.all([
			guard.writer.move(moveRequest("a.md", "b.md", "A\n")),
			guard.writer.move(moveRequest("b.md", "a.md", "B\n")),
		]);
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(["refused", "refused"]);
		expect(Object.fromEntries(gateway.notes)).toEqual({ "a.md": "A\n", "b.md": "B\n" });
	});

	it("keeps the mover's read window going: its revision still writes after the move, and its read follows the note", async () => {
		const { guard, settings } = await open({ "a.md": "one\n" });
		settings.readValidityMinutes = 10;
		await guard.notes.read(agentActor("mover", "mover-client"), "a.md");
		clock += 5 * 60_000;
		expect((await guard.writer.move(moveRequest("a.md", "b.md", undefined))).kind).toBe("moved");
		clock += 4 * 60_000;
		const written = await guard.writer.write(
			writeRequest("b.md", "two\n", { actor: agentActor("mover", "mover-client") }),
		);
		expect(written).toMatchObject({ kind: "written" });
		expect(guard.reads.lastRead("mover-client", "a.md")).toBeUndefined();
	});
});

describe("a move that replaced its destination, then found its note changed", () => {
	/** Another program writes the note between the destination's trashing and the rename: the move is refused. */
	class WrittenDuringMove extends MemoryGateway {
		override rename: MemoryGateway["rename"] = (from, to, decide) => {
			this.notes.set(from, "changed by another program\n");
			return super.rename(from, to, decide);
		};
	}

	it("names the note it trashed (the destination), not the note it was moving, on every surface", async () => {
		const gateway = new WrittenDuringMove({ "a.md": "one\n", "b.md": "theirs\n" });
		const guard = await openRevisionGuard({
			gateway,
			storage: new MemoryStorage(),
			settings: () => DEFAULT_SETTINGS,
			configDir: ".obsidian",
			timers: nodeTimers,
			now: () => clock,
		});
		const moved = await guard.writer.move(
			moveRequest("a.md", "b.md", "one\n", {
				overwrite: true,
				destinationIfMatch: parseEntityTagCondition(`"${revisionOf("theirs\n")}"`),
			}),
		);
		expect(moved).toMatchObject({ kind: "refused", side: "source", path: "a.md", trashedDestination: "b.md" });
		expect(gateway.notes.has("b.md")).toBe(false);
		if (moved.kind !== "refused") return;
		const rest = relocationRefusal({ method: "MOVE" } as RequestContext, "a.md", moved, "moved").body as {
			detail: string;
		};
		const mcp = relocationRefusalResult(moved, "a.md", "move_note").content[0];
		for (const text of [rest.detail, mcp?.type === "text" ? mcp.text : ""]) {
			expect(text).toContain('"b.md", which you asked to replace, had already been moved to the trash');
			expect(text).not.toContain('"a.md", which you asked to replace');
		}
	});
});
