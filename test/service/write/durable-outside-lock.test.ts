/**
 * A write whose change is in place but not yet durable (the headless host's folder fsync after the rename) is
 * acknowledged only once it is durable, but the note's lock is released first: the next write of the note reads
 * what is in place and need not wait on the disk for the one before it. A later write with nothing of its own to
 * make durable (the same text again, a delete) waits for the one before it.
 */
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { agentActor } from "../../../src/service/notes/actor";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import type { MutationOutcome, MutationPlan } from "../../../src/vault/gateway";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { deferred, settle } from "../../helpers/deferred";
import { writeRequest } from "../../helpers/write-request";
import { NotDurableError } from "../../../src/service/refusals/not-durable";

/** A gateway whose next write is in place at once but durable only when the test says so. */
class SlowDiskGateway extends MemoryGateway {
	holdNextDurable: Promise<void> | null = null;
	override async mutate<T>(
		path: string,
		decide: (current: string | null) => MutationPlan<T>,
	): Promise<MutationOutcome<T>> {
		const outcome = await super.mutate(path, decide);
		if (outcome.stat === null || this.holdNextDurable === null) return outcome;
		const durable = this.holdNextDurable;
		this.holdNextDurable = null;
		return { ...outcome, durable };
	}
}

async function open(initial: Record<string, string>, errors: unknown[] = []) {
	const gateway = new SlowDiskGateway(initial);
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => Date.UTC(2026, 10, 26, 10, 0, 0),
		onError: (error) => errors.push(error),
	});
	return { gateway, guard };
}

describe("a write not yet durable and the note's lock", () => {
	it("is acknowledged only once durable, while the next write of the note lands meanwhile", async () => {
		const { gateway, guard } = await open({ "a.md": "now\n" });
		const disk = deferred();
		gateway.holdNextDurable = disk.promise;
		let answered = false;
		const first = guard.writer
			.write(writeRequest("a.md", "first\n", { basedOn: "now\n" }))
			.then((outcome) => ((answered = true), outcome));
		for (let i = 0; i < 5; i++) await settle();
		expect(gateway.notes.get("a.md")).toBe("first\n");
		expect(answered).toBe(false);

		// Built on what is in place: it needs the lock the first write no longer holds.
		const second = await guard.writer.write(
			writeRequest("a.md", "second\n", { basedOn: "first\n", actor: agentActor("other") }),
		);
		expect(second.kind).toBe("written");
		expect(gateway.notes.get("a.md")).toBe("second\n");
		expect(answered).toBe(false);

		disk.release();
		const outcome = await first;
		expect(outcome.kind).toBe("written");
		expect(outcome.kind === "written" && outcome.revision).toBe(revisionOf("first\n"));
		// History and the tracker learned of both writes in the order they landed.
		expect(
			guard.history
				.entries("a.md")
				.map((entry) => entry.revision)
				.slice(-2),
		).toEqual([revisionOf("first\n"), revisionOf("second\n")]);
		expect(guard.history.latest("a.md")?.revision).toBe(revisionOf("second\n"));
	});

	it("acknowledges a retry of the same text (unchanged) or a delete only once the write before it is durable", async () => {
		for (const second of ["retry", "delete"] as const) {
			const { gateway, guard } = await open({ "a.md": "now\n" });
			const disk = deferred();
			gateway.holdNextDurable = disk.promise;
			const first = guard.writer.write(writeRequest("a.md", "first\n", { basedOn: "now\n" }));
			for (let i = 0; i < 5; i++) await settle();
			let answered = false;
			const request =
				second === "retry"
					? writeRequest("a.md", "first\n", { basedOn: "now\n", actor: agentActor("other") })
					: { ...writeRequest("a.md", "", { basedOn: "first\n" }), operation: { kind: "delete" as const } };
			const later = guard.writer.write(request).then((outcome) => ((answered = true), outcome));
			for (let i = 0; i < 5; i++) await settle();
			// Its own step is over (nothing to write, or the note moved to the trash), but what it stands on is not on disk.
			expect(answered, second).toBe(false);
			disk.release();
			expect((await later).kind, second).toBe(second === "retry" ? "unchanged" : "deleted");
			expect((await first).kind).toBe("written");
		}
	});

	it("still refuses a write built on what the not-yet-durable write replaced (the check reads what is in place)", async () => {
		const { gateway, guard } = await open({ "a.md": "now\n" });
		const disk = deferred();
		gateway.holdNextDurable = disk.promise;
		const first = guard.writer.write(writeRequest("a.md", "first\n", { basedOn: "now\n" }));
		for (let i = 0; i < 5; i++) await settle();
		const stale = await guard.writer.write(
			writeRequest("a.md", "stale\n", { basedOn: "now\n", actor: agentActor("other") }),
		);
		expect(stale.kind).toBe("refused");
		expect(gateway.notes.get("a.md")).toBe("first\n");
		disk.release();
		expect((await first).kind).toBe("written");
	});

	it("answers a write whose durability step failed as not-durable (in place, not a success), and keeps writing", async () => {
		const errors: unknown[] = [];
		const { gateway, guard } = await open({ "a.md": "now\n" }, errors);
		const disk = deferred();
		gateway.holdNextDurable = disk.promise;
		const first = guard.writer.write(writeRequest("a.md", "first\n", { basedOn: "now\n" }));
		for (let i = 0; i < 5; i++) await settle();
		// Queued behind it: the same text again (nothing of its own to make durable), then a delete of it.
		const retry = guard.writer.write(writeRequest("a.md", "first\n", { basedOn: "now\n", actor: agentActor("other") }));
		for (let i = 0; i < 5; i++) await settle();
		const eio = Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
		disk.fail(eio);

		const failed = await first.then(
			() => null,
			(error: unknown) => error,
		);
		expect(failed).toBeInstanceOf(NotDurableError);
		expect(failed).toMatchObject({
			path: "a.md",
			change: { kind: "written", revision: revisionOf("first\n") },
			diskError: "EIO",
		});
		expect((failed as Error).message).toContain("was written, but the disk reported an error (EIO)");
		// What the answer says: the new text is in place.
		expect(gateway.notes.get("a.md")).toBe("first\n");
		await expect(retry).rejects.toMatchObject({
			change: { kind: "unchanged", revision: revisionOf("first\n") },
			diskError: "EIO",
		});
		// The host learns of the disk's failure once (from the write that failed), not once per waiter.
		expect(errors).toEqual([eio]);

		// The note is served and written as before: a next write makes its own folder durable.
		const next = await guard.writer.write(writeRequest("a.md", "next\n", { basedOn: "first\n" }));
		expect(next.kind).toBe("written");
		const deleted = await guard.writer.write({
			...writeRequest("a.md", "", { basedOn: "next\n" }),
			operation: { kind: "delete" as const },
		});
		expect(deleted.kind).toBe("deleted");
	});

	it("answers a delete queued behind a write the disk failed to make durable as not-durable (moved to the trash)", async () => {
		const { gateway, guard } = await open({ "a.md": "now\n" });
		const disk = deferred();
		gateway.holdNextDurable = disk.promise;
		const first = guard.writer.write(writeRequest("a.md", "first\n", { basedOn: "now\n" }));
		for (let i = 0; i < 5; i++) await settle();
		const deleting = guard.writer.write({
			...writeRequest("a.md", "", { basedOn: "first\n" }),
			operation: { kind: "delete" as const },
		});
		for (let i = 0; i < 5; i++) await settle();
		disk.fail(Object.assign(new Error("ENOSPC"), { code: "ENOSPC" }));
		await expect(first).rejects.toMatchObject({ change: { kind: "written" }, diskError: "ENOSPC" });
		await expect(deleting).rejects.toMatchObject({ change: { kind: "deleted" }, diskError: "ENOSPC" });
		expect(gateway.notes.has("a.md")).toBe(false);
	});
});
