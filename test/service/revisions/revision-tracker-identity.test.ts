/**
 * A later start-up trusts a note's stored revision while a stat shows the very file it was read from (issue 28), and
 * never misses an edit: a note read while it was still changing (racily clean, as git calls it) is read again, and an
 * edit that keeps the size and puts the modification time back still changes the file's identity.
 */
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { openFolder, openFolderGuard } from "../../../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-identity-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(dir, { recursive: true, force: true });
});

/** Opens the folder's guard, reconciles, and reports how many notes the reconcile read; closes it. */
async function start(): Promise<{
	reads: number;
	latest: (path: string) => string | undefined;
	report: Awaited<ReturnType<Awaited<ReturnType<typeof openFolderGuard>>["tracker"]["reconcile"]>>;
}> {
	const settings = structuredClone(DEFAULT_SETTINGS);
	const folder = await openFolder(dir);
	const guard = await openFolderGuard(folder, () => settings, { persistDebounceMs: 1 });
	// A note is read through `read`, or at once through `scanNow` (a scan that found it unchanged read nothing).
	const read = vi.spyOn(folder.gateway, "read");
	const scan = vi.spyOn(folder.gateway, "scanNow");
	const report = await guard.tracker.reconcile();
	const scanned = scan.mock.results.filter((result) => result.type === "return" && result.value?.kind === "read");
	const reads = read.mock.calls.length + scanned.length;
	read.mockRestore();
	scan.mockRestore();
	const latest = new Map(guard.history.trackedPaths().map((path) => [path, guard.history.latest(path)?.revision]));
	await guard.close();
	await folder.gateway.close();
	return { reads, latest: (path) => latest.get(path), report };
}

/** Long enough for a file written now to have settled (note-file.ts settledBefore: 50 ms, 3 s on a coarse clock). */
async function settle(path: string): Promise<void> {
	const { mtimeNs } = await stat(path, { bigint: true });
	await new Promise((resolve) => setTimeout(resolve, mtimeNs % 1_000_000_000n === 0n ? 3_100 : 100));
}

describe("a note's identity (the Node gateway)", () => {
	it("comes with a read only once the file has settled, equals a stat's while unchanged, and changes with any edit", async () => {
		const note = join(dir, "n.md");
		await writeFile(note, "aaaa\n");
		const { gateway } = await openFolder(dir);
		try {
			expect((await gateway.read("n.md"))?.identity).toBeUndefined();
			await settle(note);
			const read = await gateway.read("n.md");
			expect(read?.identity).toBeDefined();
			expect(await gateway.identity("n.md")).toBe(read?.identity);
			const { atime, mtime } = await stat(note);
			await writeFile(note, "bbbb\n");
			await utimes(note, atime, mtime);
			expect(await gateway.identity("n.md")).not.toBe(read?.identity);
			expect(await gateway.identity("missing.md")).toBeNull();
		} finally {
			await gateway.close();
		}
	});
});

describe("start-up over an unchanged folder", () => {
	it("reads no note whose file is unchanged since its revision was read", async () => {
		for (let i = 0; i < 5; i++) await writeFile(join(dir, `n${i}.md`), `note ${i}\n`);
		await settle(join(dir, "n0.md"));
		expect((await start()).reads).toBe(5);
		const again = await start();
		expect(again.reads).toBe(0);
		expect(again.report).toEqual({ checked: 5, changed: 0, added: 0, removed: 0 });
	});

	it("leaves the saved history untouched when nothing changed, and saves it after a change", async () => {
		for (let i = 0; i < 3; i++) await writeFile(join(dir, `n${i}.md`), `note ${i}\n`);
		await settle(join(dir, "n0.md"));
		await start();
		const file = join(dir, ".revision-guard", "history.json");
		const identity = async () => {
			const { ino, mtimeNs, ctimeNs } = await stat(file, { bigint: true });
			return [ino, mtimeNs, ctimeNs];
		};
		const before = await identity();
		const text = await readFile(file, "utf8");
		expect((await start()).reads).toBe(0);
		expect(await identity()).toEqual(before);
		await writeFile(join(dir, "n1.md"), "edited while the host was down\n");
		expect((await start()).report.changed).toBe(1);
		expect(await identity()).not.toEqual(before);
		const saved = await readFile(file, "utf8");
		expect(saved).not.toBe(text);
		expect(saved).toContain(revisionOf("edited while the host was down\n"));
	});

	it("reads again a note edited while the host was down, even with its size and modification time put back", async () => {
		const note = join(dir, "n.md");
		await writeFile(note, "aaaa\n");
		await settle(note);
		await start();
		const { atime, mtime } = await stat(note);
		await writeFile(note, "bbbb\n");
		await utimes(note, atime, mtime);
		const again = await start();
		expect(again.report.changed).toBe(1);
		expect(again.latest("n.md")).toBe(revisionOf("bbbb\n"));
	});

	it("reads again a note that was still changing when it was read (racily clean), even if its stat looks the same", async () => {
		const note = join(dir, "n.md");
		await writeFile(note, "aaaa\n");
		// Read at once: the file has not settled, so an edit in the same tick of the disk's clock could leave its stat
		// as it was; no identity is kept for it, and the next start reads it again.
		await start();
		const second = await start();
		expect(second.reads).toBe(1);
		expect(second.latest("n.md")).toBe(revisionOf(await readFile(note, "utf8")));
	});
});
