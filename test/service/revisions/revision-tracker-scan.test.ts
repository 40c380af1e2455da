/**
 * The start-up reconcile over a plain folder reads notes through their folder, checked once (vault/scan-folder.ts):
 * a note that is a symbolic link is still reconciled (through the ordinary read, which follows it inside the vault
 * and refuses it outside), and the folder the scan held is let go once the reconcile is done.
 */
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { openFolder, openFolderGuard } from "../../../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";

let dir: string;
let outside: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-scan-reconcile-"));
	outside = await mkdtemp(join(tmpdir(), "rg-scan-outside-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(dir, { recursive: true, force: true });
	await rm(outside, { recursive: true, force: true });
});

describe("the start-up reconcile over a plain folder", () => {
	it("reads the notes of a folder through it, lets go of it once done, and never reads a link that leads outside", async () => {
		await mkdir(join(dir, "a"));
		await writeFile(join(dir, "a/n.md"), "plain\n");
		await writeFile(join(dir, "a/target.md"), "target\n");
		await symlink(join(dir, "a/target.md"), join(dir, "a/alias.md"));
		await writeFile(join(outside, "secret.md"), "secret\n");
		await symlink(join(outside, "secret.md"), join(dir, "a/leak.md"));
		const settings = structuredClone(DEFAULT_SETTINGS);
		const folder = await openFolder(dir);
		const guard = await openFolderGuard(folder, () => settings, { persistDebounceMs: 1 });
		const endScan = vi.spyOn(folder.gateway, "endScan");
		try {
			await guard.tracker.reconcile();
			expect(endScan).toHaveBeenCalledTimes(1);
			expect(guard.history.latest("a/n.md")?.revision).toBe(revisionOf("plain\n"));
			expect(guard.history.latest("a/target.md")?.revision).toBe(revisionOf("target\n"));
			// Symbolic links are not listed as notes (node-folder-listing.ts); asked for by name, read decides.
			expect(guard.history.latest("a/leak.md")).toBeUndefined();
		} finally {
			await guard.close();
			await folder.gateway.close();
		}
	});

	it("takes its list from the watcher once tracking runs: notes deleted and added while down are both found", async () => {
		await writeFile(join(dir, "kept.md"), "kept\n");
		await writeFile(join(dir, "gone.md"), "gone\n");
		const settings = structuredClone(DEFAULT_SETTINGS);
		const start = async () => {
			const folder = await openFolder(dir);
			const guard = await openFolderGuard(folder, () => settings, { persistDebounceMs: 1 });
			const known = vi.spyOn(folder.gateway, "knownNotes");
			guard.tracker.start();
			const report = await guard.tracker.reconcile();
			const listed = (await known.mock.results[0]?.value) as string[] | null | undefined;
			const latest = (path: string) => guard.history.latest(path)?.revision;
			const seen = { report, listed, kept: latest("kept.md"), gone: latest("gone.md"), added: latest("added.md") };
			await guard.close();
			await folder.gateway.close();
			return seen;
		};
		expect((await start()).report).toMatchObject({ checked: 2, added: 2, removed: 0 });
		await unlink(join(dir, "gone.md"));
		await writeFile(join(dir, "added.md"), "added\n");
		const again = await start();
		expect(again.listed?.sort()).toEqual(["added.md", "kept.md"]);
		expect(again.report).toMatchObject({ checked: 2, added: 1, removed: 1 });
		expect(again).toMatchObject({ kept: revisionOf("kept\n"), gone: undefined, added: revisionOf("added\n") });
	});
});
