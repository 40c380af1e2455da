/**
 * The folder watcher sees every change another program makes: in subfolders, in folders made after it started, by
 * renames, by deletes of files and whole folders, and by editors that save through a temp file. Run with one watcher
 * per folder (what Linux uses) and with one recursive watcher (what macOS and Windows use; on Linux Node emulates it).
 */
import { mkdirSync, rmSync, writeFileSync } from "fs";
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, describe, expect, it } from "vitest";
import type { WatchMode } from "../../src/vault/folder-watch-source";
import { notes, watchFolder, type WatchedFolder } from "./folder-watcher-harness";

let opened: WatchedFolder[] = [];
afterEach(async () => {
	for (const folder of opened) await folder.close();
	opened = [];
});

describe.each<WatchMode>(["per-folder", "recursive"])("FolderWatcher (%s)", (mode) => {
	async function open(files: Record<string, string> = {}, skip?: (path: string) => boolean): Promise<WatchedFolder> {
		const folder = await watchFolder(files, { mode, skip });
		opened.push(folder);
		return folder;
	}

	it("reports creates, modifies and deletes, in the root and in subfolders that were there at the start", async () => {
		const t = await open({ "a.md": "a", "sub/deep/b.md": "b" });
		await t.write({ "new.md": "n", "sub/deep/c.md": "c", "a.md": "a2", "sub/deep/b.md": "b2" });
		await rm(join(t.root, "sub/deep/b.md"));
		await t.hears(
			"create new.md",
			"create sub/deep/c.md",
			"modify a.md",
			"modify sub/deep/b.md",
			"delete sub/deep/b.md",
		);
		// What was there at the start is not reported as new.
		expect(t.heard).not.toContain("create a.md");
		expect(t.heard).not.toContain("create sub/deep/b.md");
	});

	it("reports notes written into folders made after it started, right after the mkdir", async () => {
		const t = await open();
		for (let i = 0; i < 10; i++) {
			await mkdir(join(t.root, `f${i}/g/h`), { recursive: true });
			await writeFile(join(t.root, `f${i}/g/h/n.md`), "x");
			await writeFile(join(t.root, `f${i}/top.md`), "x");
		}
		const expected = Array.from({ length: 10 }, (_, i) => [`create f${i}/g/h/n.md`, `create f${i}/top.md`]).flat();
		await t.hears(...expected);
		// And the new folders are watched from then on.
		await t.write({ "f3/g/h/n.md": "changed" });
		await t.hears("modify f3/g/h/n.md");
	});

	it("reports every note of a folder moved in whole from outside (no event ever names them: it is listed once)", async () => {
		const t = await open();
		const outside = await mkdtemp(join(tmpdir(), "rg-watch-outside-"));
		await mkdir(join(outside, "tree/inner"), { recursive: true });
		await writeFile(join(outside, "tree/a.md"), "a");
		await writeFile(join(outside, "tree/inner/b.md"), "b");
		await rename(join(outside, "tree"), join(t.root, "tree"));
		await rm(outside, { recursive: true });
		await t.hears("create tree/a.md", "create tree/inner/b.md");
	});

	it("reports a rename as a delete of the old path and a create of the new one", async () => {
		const t = await open({ "old.md": "x", "sub/keep.md": "k" });
		await rename(join(t.root, "old.md"), join(t.root, "sub/new.md"));
		await t.hears("delete old.md", "create sub/new.md");
	});

	it("reports every note under a folder that was renamed or removed, nested ones included", async () => {
		const t = await open({
			"a/one.md": "1",
			"a/b/two.md": "2",
			"a/b/c/three.md": "3",
			"gone/x.md": "x",
			"gone/y/z.md": "z",
		});
		await rename(join(t.root, "a"), join(t.root, "moved"));
		await rm(join(t.root, "gone"), { recursive: true });
		await t.hears(
			"delete a/one.md",
			"delete a/b/two.md",
			"delete a/b/c/three.md",
			"create moved/one.md",
			"create moved/b/two.md",
			"create moved/b/c/three.md",
		);
		await t.hears("delete gone/x.md", "delete gone/y/z.md");
		// The moved folder is watched under its new name.
		await t.write({ "moved/b/c/three.md": "3b" });
		await t.hears("modify moved/b/c/three.md");
	});

	it("sees a folder removed and made again, with a new note in it", async () => {
		const t = await open({ "again/old.md": "o" });
		await rm(join(t.root, "again"), { recursive: true });
		await t.write({ "again/new.md": "n" });
		await t.hears("delete again/old.md", "create again/new.md");
		await t.write({ "again/new.md": "n2" });
		await t.hears("modify again/new.md");
	});

	it("reports a note an editor saved through a temp file renamed over it", async () => {
		const t = await open({ "sub/note.md": "before" });
		// Temp name beside it, then renamed over the note (as most editors and our own writer do).
		await writeFile(join(t.root, "sub/note.md.tmp~"), "after");
		await rename(join(t.root, "sub/note.md.tmp~"), join(t.root, "sub/note.md"));
		await t.hears("modify sub/note.md");
		// The note moved aside, a new one written, the old one removed (as some editors keep a backup).
		await rename(join(t.root, "sub/note.md"), join(t.root, "sub/note.md~"));
		await writeFile(join(t.root, "sub/note.md"), "again");
		await rm(join(t.root, "sub/note.md~"));
		await t.settled("sub");
		// However the steps are told (the delete may be seen after the new note is already there), the last word is not a delete.
		const last = t.heard.filter((line) => line.endsWith(" sub/note.md")).at(-1);
		expect(last).toMatch(/^(create|modify) /);
	});

	it("never reports hidden names (our temp files and state, the trash, .obsidian) nor skipped ones", async () => {
		const t = await open({ ".revision-guard/state.json": "{}", ".obsidian/app.json": "{}", "sub/n.md": "n" }, (path) =>
			path.endsWith(".bak.md"),
		);
		await t.write({
			".revision-guard/state.json": "{1}",
			".obsidian/app.json": "{1}",
			".trash/old.md": "t",
			"sub/.n.md.rg-tmp-0123456789ab": "temp",
			".hidden/deep/x.md": "h",
			"sub/n.20261121-101500.bak.md": "kept",
		});
		await rm(join(t.root, "sub/.n.md.rg-tmp-0123456789ab"));
		await t.settled("sub");
		await t.settled();
		expect(notes(t.heard)).toEqual([]);
	});

	it("does not follow symlinks: a link is an entry of its own, what it points to is not watched", async () => {
		const t = await open({ "target/inside.md": "i" });
		await symlink(join(t.root, "target"), join(t.root, "link"));
		await t.hears("create link");
		await t.write({ "target/inside.md": "i2" });
		await t.hears("modify target/inside.md");
		await t.settled();
		expect(t.heard.filter((line) => line.includes("link/"))).toEqual([]);
	});
});

// One watcher per folder only: Node 20 emulates `recursive: true` on Linux in JavaScript, and that emulation itself
// sometimes says nothing at all about a file replaced by a folder, or about a folder removed and made again in one go
// (seen by experiment with bare fs.watch). On macOS and Windows the recursive watcher is the system's own.
describe("FolderWatcher (per-folder)", () => {
	async function openWatched(files: Record<string, string>): Promise<WatchedFolder> {
		const folder = await watchFolder(files, { mode: "per-folder" });
		opened.push(folder);
		return folder;
	}

	it("reports a folder that became a file, and a file that became a folder", async () => {
		const t = await openWatched({ "x/in.md": "i", "y.md": "y" });
		await rm(join(t.root, "x"), { recursive: true });
		await writeFile(join(t.root, "x"), "now a file");
		await rm(join(t.root, "y.md"));
		await t.write({ "y.md/inner.md": "now a folder" });
		await t.hears("delete x/in.md", "create x", "delete y.md", "create y.md/inner.md");
	});

	it("watches a folder removed and made again in one go, when the new folder gets the old one's inode number too", async () => {
		const t = await openWatched({ "again/deeper/r0.md": "o" });
		for (let round = 1; round <= 10; round++) {
			// In one go, so the watcher only looks once the new folder is there.
			rmSync(join(t.root, "again"), { recursive: true });
			mkdirSync(join(t.root, "again/deeper"), { recursive: true });
			writeFileSync(join(t.root, `again/deeper/r${round}.md`), "r");
			await t.hears(`delete again/deeper/r${round - 1}.md`, `create again/deeper/r${round}.md`);
			// The folder made again is watched, whatever its inode.
			await t.write({ [`again/deeper/r${round}.md`]: "changed" });
			await t.hears(`modify again/deeper/r${round}.md`);
		}
	});
});
