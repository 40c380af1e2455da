/**
 * A tokenless client is held to what it knew when it SENT a request. Two writes it sends in parallel after one read
 * are both based on that read: one lands, the other is refused and kept, never a silent replace of the first. The
 * second request is made to arrive while the first is in the middle of its write step (held there by a hook), so
 * this does not depend on timing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startHeadless, type Harness } from "../helpers/headless-harness";
import { onNoteWriteStep } from "../helpers/write-step-hook";
import { readVaultFile, writeVaultFile } from "../helpers/vault-files";

describe("two tokenless writes sent in parallel after one read", () => {
	let h: Harness;
	beforeEach(async () => {
		h = await startHeadless();
		await writeVaultFile(h.dir, "Note.md", "read once\n");
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		await h.close();
		expect(h.errors).toEqual([]);
	});

	/** Runs `during` once, while the first write to Note.md is between its check and its rename. */
	function duringFirstWrite(during: () => Promise<void>): void {
		let done = false;
		onNoteWriteStep(h.dir, "Note.md", async () => {
			if (done) return;
			done = true;
			await during();
		});
	}

	/** Resolves once the writer has been asked `count` times what a tokenless write is held to (a request arrived). */
	async function arrivals(count: number): Promise<void> {
		const held = vi.spyOn(h.guard.writer, "heldRevision");
		while (held.mock.calls.length < count) await new Promise((resolve) => setTimeout(resolve, 1));
	}

	it("lands one and refuses the other with a .bak (REST PUT)", async () => {
		expect((await h.api("/vault/Note.md")).status).toBe(200);
		const secondArrived = arrivals(2);
		let second!: Promise<Awaited<ReturnType<Harness["api"]>>>;
		duringFirstWrite(async () => {
			second = h.api("/vault/Note.md", { method: "PUT", body: "second\n" });
			await secondArrived;
		});
		const first = await h.api("/vault/Note.md", { method: "PUT", body: "first\n" });
		expect(first.status).toBe(204);
		const refused = await second;
		expect(refused.status, refused.text).toBe(412);
		const body = refused.json<{ backupPath: string; implicitRevision: boolean }>();
		expect(body.implicitRevision).toBe(true);
		expect((await readVaultFile(h.dir, body.backupPath)).toString()).toBe("second\n");
		expect((await readVaultFile(h.dir, "Note.md")).toString()).toBe("first\n");
	});

	it("still lets read → write → write through when the writes are sequential", async () => {
		expect((await h.api("/vault/Note.md")).status).toBe(200);
		expect((await h.api("/vault/Note.md", { method: "PUT", body: "first\n" })).status).toBe(204);
		expect((await h.api("/vault/Note.md", { method: "PUT", body: "second\n" })).status).toBe(204);
		expect((await readVaultFile(h.dir, "Note.md")).toString()).toBe("second\n");
	});
});
