/**
 * Racily clean notes (git's term): an edit in the same timestamp tick as the read that the stored state describes
 * can leave a file's stat exactly as it was. Here the disk's clock is made that coarse on purpose: the file's
 * identity leaves out its change time, and the edit keeps the size and puts the modification time back, so a stat
 * cannot tell the edit at all. The note was read before it had settled, so no identity was kept for it, and the next
 * start reads it again and finds the edit.
 */
import { mkdtemp, rm, stat, utimes, writeFile } from "fs/promises";
import type { BigIntStats } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { openFolder, openFolderGuard } from "../../../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";

vi.mock("../../../src/vault/note-file", async (original) => ({
	...(await original<typeof import("../../../src/vault/note-file")>()),
	// A disk whose clock does not see the edit: no change time, so only size and modification time can tell it.
	identityKeyOf: (stats: BigIntStats) => `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`,
}));

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-racy-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(dir, { recursive: true, force: true });
});

async function start() {
	const settings = structuredClone(DEFAULT_SETTINGS);
	const folder = await openFolder(dir);
	const guard = await openFolderGuard(folder, () => settings, { persistDebounceMs: 1 });
	const report = await guard.tracker.reconcile();
	const latest = guard.history.latest("n.md")?.revision;
	const identity = await folder.gateway.identity("n.md");
	await guard.close();
	await folder.gateway.close();
	return { report, latest, identity };
}

it("finds at the next start an edit made in the same timestamp tick as the state was saved, though the stat is unchanged", async () => {
	const note = join(dir, "n.md");
	await writeFile(note, "aaaa\n");
	// This second of the disk's clock: whole seconds, which utimes puts back exactly.
	const tick = Math.floor(Date.now() / 1000);
	await utimes(note, tick, tick);
	// Read and saved in the very tick of the note's last change (the clock held there, however slow this machine is
	// today): the note is racily clean.
	const { ctimeMs } = await stat(note);
	const clock = vi.spyOn(Date, "now").mockReturnValue(Math.floor(ctimeMs));
	const first = await start();
	clock.mockRestore();
	expect(first.latest).toBe(revisionOf("aaaa\n"));
	await writeFile(note, "bbbb\n");
	await utimes(note, tick, tick);
	const second = await start();
	// The stat cannot tell the edit (the same identity as when the state was saved)...
	expect(second.identity).toBe(first.identity);
	// ...and still the edit is found.
	expect(second.report.changed).toBe(1);
	expect(second.latest).toBe(revisionOf("bbbb\n"));
});
