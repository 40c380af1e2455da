/**
 * Failures in the middle of a stale write must never cost the agent its text: a merge that throws, and a note that
 * another program keeps changing under every attempt, both end as a 412 with the body kept, never a 500.
 */
import { writeFileSync } from "fs";
import { join } from "path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startHeadless, type Harness } from "../../helpers/headless-harness";
import { readVaultFile, writeVaultFile } from "../../helpers/vault-files";
import { onNoteWriteStep } from "../../helpers/write-step-hook";

// The merge engine fails (as a pathological note could make it); everything else is real.
vi.mock("../../../src/core/merge", async (importOriginal) => ({
	...(await importOriginal<typeof import("../../../src/core/merge")>()),
	mergeThreeWayInSlices: () => Promise.reject(new RangeError("Maximum call stack size exceeded")),
}));

describe("failures during a stale write", () => {
	let h: Harness;
	afterEach(async () => {
		vi.restoreAllMocks();
		await h.close();
	});

	it("keeps the body and answers 412 when the requested merge throws", async () => {
		h = await startHeadless();
		await writeVaultFile(h.dir, "Note.md", "one\ntwo\nthree\n");
		const etag = (await h.api("/vault/Note.md")).headers.etag as string;
		await writeVaultFile(h.dir, "Note.md", "one\ntwo\nthree\nfour\n");
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "ONE\ntwo\nthree\n",
			headers: { "If-Match": etag, Prefer: "merge=auto" },
		});
		expect(put.status, put.text).toBe(412);
		const { backupPath, mergePreview } = put.json<{ backupPath: string; mergePreview?: string }>();
		expect((await readVaultFile(h.dir, backupPath)).toString()).toBe("ONE\ntwo\nthree\n");
		expect(mergePreview).toBeUndefined();
		// The failure was reported to the host, not answered.
		expect(h.errors).toHaveLength(1);
	});

	it("keeps the body and answers 412 when another program changes the note under every attempt", async () => {
		h = await startHeadless();
		await writeVaultFile(h.dir, "Note.md", "start\n");
		// An append is decided again on every attempt (it needs no token), so only the attempt limit ends it.
		let saves = 0;
		onNoteWriteStep(h.dir, "Note.md", () => writeFileSync(join(h.dir, "Note.md"), `save ${++saves}\n`));
		const post = await h.api("/vault/Note.md", { method: "POST", body: "the agent's line\n" });
		expect(post.status, post.text).toBe(412);
		expect(saves).toBe(20);
		const { backupPath } = post.json<{ backupPath: string }>();
		expect((await readVaultFile(h.dir, backupPath)).toString()).toBe("the agent's line\n");
		expect((await readVaultFile(h.dir, "Note.md")).toString()).toBe("save 20\n");
		expect(h.errors).toEqual([]);
	});
});
