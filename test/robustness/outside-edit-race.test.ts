/**
 * The headless gateway's write step takes a while (temp file, fsync, rename), and another program can save the
 * note in the middle of it. Such an edit must never be overwritten silently: the write is decided again on what the
 * note holds now (so a stale token is refused and kept as a .bak). The outside edit is injected deterministically at
 * the moment the gateway opens its temp file, so this does not depend on timing.
 */
import fs, { readFileSync, renameSync, writeFileSync } from "fs";
import { readFile } from "fs/promises";
import { dirname, join } from "path";
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
		[
			"by replacing the file",
			(file: string, content: string) => {
				writeFileSync(join(h.dir, ".outside-save"), content);
				renameSync(join(h.dir, ".outside-save"), file);
			},
		],
	])("is never overwritten by a write checked before it (%s)", async (_, save) => {
		const file = join(h.dir, "Note.md");
		writeFileSync(file, "line one\n");
		const read = await h.api("/vault/Note.md");
		duringWriteOf("Note.md", () => save(file, readFileSync(file, "utf8") + "typed by the person\n"));
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "line one\nby the agent\n",
			headers: { "If-Match": read.headers.etag as string },
		});
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

	/** Lets the note's last write settle past the window in which its stat could hide a same-tick edit. */
	const settle = () => new Promise((resolve) => setTimeout(resolve, 80));

	it("checks a settled note with one stat just before the rename: it does not read the note again", async () => {
		const file = join(h.dir, "Note.md");
		// The comparison reads the note through the descriptor the decision read held open (or by name where none is held).
		const reads = vi.spyOn(fs, "readFileSync");
		const heldReads = vi.spyOn(fs, "readSync");
		const readsOf = () =>
			reads.mock.calls.filter(([path]) => String(path) === file).length + (heldReads.mock.calls.length > 0 ? 1 : 0);
		// Control: a note changed a moment ago may hide a same-tick edit from its stat, so it IS compared byte for byte.
		writeFileSync(file, "x".repeat(800_000));
		const fresh = await h.api("/vault/Note.md");
		writeFileSync(file, "y".repeat(800_000));
		const racy = await h.api("/vault/Note.md");
		expect(
			(
				await h.api("/vault/Note.md", {
					method: "PUT",
					body: "z\n",
					headers: { "If-Match": racy.headers.etag as string },
				})
			).status,
		).toBe(204);
		expect(fresh.headers.etag).not.toBe(racy.headers.etag);
		expect(readsOf()).toBe(1);
		// A settled note: one stat, whatever its size.
		writeFileSync(file, "x".repeat(800_000));
		const read = await h.api("/vault/Note.md");
		await settle();
		reads.mockClear();
		heldReads.mockClear();
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "by the agent\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(put.status).toBe(204);
		expect(readsOf()).toBe(0);
	});

	it("sees a same-size save that lands right at the final check, and decides again", async () => {
		const file = join(h.dir, "Note.md");
		writeFileSync(file, "version A\n");
		const read = await h.api("/vault/Note.md");
		await settle();
		const realStat: (path: string, options?: object) => unknown = fs.statSync.bind(fs);
		let saved = false;
		const hook = (path: string, options?: { bigint?: boolean }): unknown => {
			// The final check asks for nanosecond stats of the note: the person's save lands just before it looks.
			if (!saved && path === file && options?.bigint) {
				saved = true;
				writeFileSync(file, "version B\n");
			}
			return realStat(path, options);
		};
		vi.spyOn(fs, "statSync").mockImplementation(hook as typeof fs.statSync);
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "by the agent\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(saved).toBe(true);
		expect(put.status).toBe(412);
		expect(await readFile(file, "utf8")).toBe("version B\n");
		expect(await readFile(join(h.dir, put.json<{ backupPath: string }>().backupPath), "utf8")).toBe("by the agent\n");
	});

	it.each([
		["with If-Match", true],
		["tokenless, with tokens optional", false],
	])("does not re-create a note renamed away during the write step (%s): 412 with a .bak", async (_, sendToken) => {
		await h.close();
		h = await startHeadless({ requireToken: false, protectTokenlessClients: false });
		const file = join(h.dir, "Note.md");
		writeFileSync(file, "the person's note, long enough to matter for the content-loss check\n");
		const etag = (await h.api("/vault/Note.md")).headers.etag as string;
		duringWriteOf("Note.md", () => {
			mkdirSyncSafe(join(h.dir, "Moved"));
			renameSync(file, join(h.dir, "Moved/Note.md"));
		});
		const sent: Record<string, string> = sendToken ? { "If-Match": etag } : {};
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "the agent's note, long enough to matter for the content-loss check\n",
			headers: sent,
		});
		expect(put.status, put.text).toBe(412);
		expect(await readFile(file, "utf8").catch(() => null)).toBeNull();
		expect(await readFile(join(h.dir, "Moved/Note.md"), "utf8")).toContain("the person's note");
		expect(await readFile(join(h.dir, put.json<{ backupPath: string }>().backupPath), "utf8")).toContain(
			"the agent's note",
		);
	});

	it("answers a write that landed as landed, even when the note is renamed right after our rename", async () => {
		const file = join(h.dir, "Note.md");
		writeFileSync(file, "before\n");
		const etag = (await h.api("/vault/Note.md")).headers.etag as string;
		// The folder fsync comes right after the rename: the note is moved away at that moment.
		// atomic-file.ts opens the folder to fsync it with openSync(path, "r").
		const openSync = fs.openSync.bind(fs);
		let moved = false;
		vi.spyOn(fs, "openSync").mockImplementation((...args: Parameters<typeof fs.openSync>) => {
			if (!moved && String(args[0]) === dirname(file) && args[1] === "r") {
				moved = true;
				renameSync(file, join(h.dir, "Renamed.md"));
			}
			return openSync(...args);
		});
		const put = await h.api("/vault/Note.md", { method: "PUT", body: "after\n", headers: { "If-Match": etag } });
		expect(moved).toBe(true);
		expect(put.status, put.text).toBe(204);
		expect(await readFile(join(h.dir, "Renamed.md"), "utf8")).toBe("after\n");
	});
});

function mkdirSyncSafe(path: string): void {
	fs.mkdirSync(path, { recursive: true });
}
