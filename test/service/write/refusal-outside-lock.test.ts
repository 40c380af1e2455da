/**
 * A refusal keeps the refused body (its .bak and conflict record) after the note's lock is released, so writes that
 * get through are not held up by refusals; it is still not answered before both are saved.
 */
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { agentActor } from "../../../src/service/notes/actor";
import type { WriteOutcome } from "../../../src/service/write/guarded-writer";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { deferred, settle } from "../../helpers/deferred";
import { writeRequest } from "../../helpers/write-request";

/** A gateway whose .bak creations wait for the test, and a storage whose appends can be made to wait too. */
class HeldGateway extends MemoryGateway {
	holdCreates: Promise<void> | null = null;
	createsStarted = 0;
	override async createExclusive(path: string, content: string): Promise<boolean> {
		this.createsStarted++;
		if (this.holdCreates) await this.holdCreates;
		return super.createExclusive(path, content);
	}
}

class HeldStorage extends MemoryStorage {
	holdAppends: Promise<void> | null = null;
	appends: string[] = [];
	override async append(name: string, text: string): Promise<void> {
		if (this.holdAppends) await this.holdAppends;
		this.appends.push(text);
		await super.append(name, text);
	}
}

/** Like Obsidian's: a create checks for the file, then writes it later, so two creates of one name both go ahead. */
class RacyCreateGateway extends HeldGateway {
	override async createExclusive(path: string, content: string): Promise<boolean> {
		if (this.notes.has(path)) return false;
		await settle();
		this.notes.set(path, content);
		return true;
	}
}

async function open(initial: Record<string, string>, gateway = new HeldGateway(initial)) {
	const storage = new HeldStorage();
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage,
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => Date.UTC(2026, 10, 21, 10, 15, 0),
	});
	return { gateway, storage, guard };
}

function refused(outcome: WriteOutcome) {
	expect(outcome.kind).toBe("refused");
	return outcome as Extract<WriteOutcome, { kind: "refused" }>;
}

describe("a refusal and the note's lock", () => {
	it("does not hold the lock while its .bak is written, and is answered only once the .bak and record are saved", async () => {
		const { gateway, storage, guard } = await open({ "a.md": "now\n" });
		const held = deferred();
		gateway.holdCreates = held.promise;
		let answered = false;
		const stale = guard.writer
			.write(writeRequest("a.md", "stale agent\n", { basedOn: "old\n" }))
			.then((outcome) => ((answered = true), outcome));
		await settle();
		expect(gateway.createsStarted).toBe(1);
		// Another write to the same note, with the right token, lands while the .bak is still being written.
		const accepted = await guard.writer.write(
			writeRequest("a.md", "next\n", { basedOn: "now\n", actor: agentActor("other") }),
		);
		expect(accepted.kind).toBe("written");
		expect(gateway.notes.get("a.md")).toBe("next\n");
		expect(answered).toBe(false);

		held.release();
		const outcome = refused(await stale);
		const backup = outcome.conflict!.backupPath!;
		expect(gateway.notes.get(backup)).toBe("stale agent\n");
		expect(storage.files.get("conflicts.jsonl")).toContain(outcome.conflict!.id);
		// The record names the revision that refused the write, not the one that landed meanwhile.
		expect(outcome.currentRevision).toBe(revisionOf("now\n"));
		expect(guard.conflicts.get(outcome.conflict!.id)?.currentRevision).toBe(revisionOf("now\n"));
	});

	it("is not answered until its conflict record is durably appended", async () => {
		const { storage, guard } = await open({ "a.md": "now\n" });
		const held = deferred();
		storage.holdAppends = held.promise;
		let answered = false;
		const stale = guard.writer
			.write(writeRequest("a.md", "stale agent\n", { basedOn: "old\n" }))
			.then((outcome) => ((answered = true), outcome));
		for (let i = 0; i < 5; i++) await settle();
		expect(answered).toBe(false);
		held.release();
		const outcome = refused(await stale);
		expect(storage.appends.join("")).toContain(outcome.conflict!.id);
	});

	/** A stale write whose .bak is held while another agent's write lands on the revision it refused, then let go. */
	async function refusalWhileAWriteLands() {
		const { gateway, guard } = await open({ "a.md": "now\n" });
		const held = deferred();
		gateway.holdCreates = held.promise;
		const stale = guard.writer.write(writeRequest("a.md", "stale agent\n", { basedOn: "old\n" }));
		await settle();
		await guard.writer.write(writeRequest("a.md", "next\n", { basedOn: "now\n", actor: agentActor("other") }));
		held.release();
		return { guard, stale };
	}

	it("settles its record with a write that landed on the refused revision before the record existed", async () => {
		const { guard, stale } = await refusalWhileAWriteLands();
		const record = guard.conflicts.get(refused(await stale).conflict!.id)!;
		// As if the record had been there when the write landed: a write on top of the refused revision settles it.
		expect(record.status).toBe("resolved");
		expect(record.resolvedRevision).toBe(revisionOf("next\n"));
		expect(record.resolvedBy).toBe("other");
	});

	it("keeps history in order: the note it hands the refused agent is recorded before a later write", async () => {
		const { guard, stale } = await refusalWhileAWriteLands();
		await stale;
		expect(guard.history.latest("a.md")?.revision).toBe(revisionOf("next\n"));
	});

	it("keeps each of many concurrent refusals: a .bak with exactly its bytes, and a record naming it", async () => {
		const { gateway, guard } = await open({ "a.md": "now\n" });
		const bodies = Array.from({ length: 24 }, (_, i) => `agent ${i % 12}\n`);
		const writes = bodies.map((body, i) =>
			guard.writer.write(writeRequest("a.md", body, { basedOn: "old\n", actor: agentActor(`w${i}`) })),
		);
		// Writes that get through, interleaved with the refusals.
		const accepted = [
			guard.writer.write(writeRequest("a.md", "first\n", { basedOn: "now\n" })),
			guard.writer.write(writeRequest("a.md", "second\n", { basedOn: "first\n" })),
		];
		const outcomes = (await Promise.all(writes)).map(refused);
		expect((await Promise.all(accepted)).map((outcome) => outcome.kind)).toEqual(["written", "written"]);
		const ids = new Set<string>();
		outcomes.forEach((outcome, i) => {
			const conflict = outcome.conflict!;
			ids.add(conflict.id);
			expect(gateway.notes.get(conflict.backupPath!)).toBe(bodies[i]);
			expect(guard.conflicts.get(conflict.id)?.backupPath).toBe(conflict.backupPath);
		});
		expect(ids.size).toBe(bodies.length);
	});

	it("never gives two concurrent refusals the same .bak name, even where a create is not exclusive against itself", async () => {
		const { gateway, guard } = await open({}, new RacyCreateGateway({ "a.md": "now\n" }));
		const bodies = Array.from({ length: 8 }, (_, i) => `agent ${i}\n`);
		const outcomes = (
			await Promise.all(bodies.map((body) => guard.writer.write(writeRequest("a.md", body, { basedOn: "old\n" }))))
		).map(refused);
		outcomes.forEach((outcome, i) => expect(gateway.notes.get(outcome.conflict!.backupPath!)).toBe(bodies[i]));
		expect(new Set(outcomes.map((outcome) => outcome.conflict!.backupPath)).size).toBe(bodies.length);
	});

	it("keeps the same body sent twice at once: each answer names a .bak that holds it", async () => {
		const { gateway, guard } = await open({ "a.md": "now\n" });
		const write = () => guard.writer.write(writeRequest("a.md", "twice\n", { basedOn: "old\n" }));
		const outcomes = (await Promise.all([write(), write(), write()])).map(refused);
		for (const outcome of outcomes) {
			expect(gateway.notes.get(outcome.conflict!.backupPath!)).toBe("twice\n");
			expect(guard.conflicts.get(outcome.conflict!.id)).toBeDefined();
		}
	});
});
