/**
 * The headless gateway's write step takes a while (temp file, fsync, rename), and another program can save the
 * note in the middle of it. Such an edit must never be overwritten silently: the write is decided again on what the
 * note holds now (so a stale token is refused and kept as a .bak). The outside edit is injected deterministically at
 * the moment the gateway opens its temp file, so this does not depend on timing.
 */
import { readFileSync, renameSync, writeFileSync } from "fs";
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startHeadless, type Harness } from "../helpers/headless-harness";
import { onNoteWriteStep } from "../helpers/write-step-hook";

describe("an outside save during the headless write step", () => {
	let h: Harness;
	beforeEach(async () => {
		h = await startHeadless();
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		await h.close();
	});

	/** Runs `edit` once, when the gateway starts writing `note` (that is, after its check, before its rename). */
	function duringWriteOf(note: string, edit: () => void): void {
		let done = false;
		onNoteWriteStep(h.dir, note, () => {
			if (done) return;
			done = true;
			edit();
		});
	}

	it.each([
		["in place", (file: string, content: string) => writeFileSync(file, content)],
		["by replacing the file", (file: string, content: string) => {
			writeFileSync(join(h.dir, ".outside-save"), content);
			renameSync(join(h.dir, ".outside-save"), file);
		}],
	])("is never overwritten by a write checked before it (%s)", async (_, save) => {
		const file = join(h.dir, "Note.md");
		writeFileSync(file, "line one\n");
		const read = await h.api("/vault/Note.md");
		duringWriteOf("Note.md", () => save(file, readFileSync(file, "utf8") + "typed by the person\n"));
		const put = await h.api("/vault/Note.md", { method: "PUT", body: "line one\nby the agent\n", headers: { "If-Match": read.headers.etag as string } });
		const final = await readFile(file, "utf8");
		expect(final).toContain("typed by the person\n");
		// The agent's write was decided again on the new content: refused, and its body kept.
		expect(put.status).toBe(412);
		const { backupPath } = put.json<{ backupPath: string }>();
		expect(await readFile(join(h.dir, backupPath), "utf8")).toBe("line one\nby the agent\n");
	});

	it("does not create over a note another program created meanwhile", async () => {
		const file = join(h.dir, "New.md");
		duringWriteOf("New.md", () => writeFileSync(file, "created by the person\n"));
		const put = await h.api("/vault/New.md", { method: "PUT", body: "by the agent\n", headers: {} });
		expect(await readFile(file, "utf8")).toBe("created by the person\n");
		expect(put.status).toBe(428);
	});
});
