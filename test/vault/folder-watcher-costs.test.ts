/**
 * What a change costs the folder watcher (one lstat of the path an event names, never a listing of the folder, no
 * fs call at all for hidden and skipped names), and what it does when the system will not let it watch a folder or a
 * watcher fails: it keeps reporting changes there (by polling) and never crashes.
 */
import * as realFs from "fs";
import { rename, rm, writeFile } from "fs/promises";
import { join } from "path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WatchFunction, WatchMode } from "../../src/vault/folder-watch-source";
import { FolderWatcher } from "../../src/vault/folder-watcher";
import { notes, watchFolder, type WatchedFolder } from "./folder-watcher-harness";

/** Every lstat and readdir the watcher makes, by path. */
const calls = vi.hoisted(() => ({ lstat: [] as string[], readdir: [] as string[] }));
vi.mock("fs", async (importOriginal) => {
	const fs = await importOriginal<typeof import("fs")>();
	const lstat = (path: string, callback: (error: NodeJS.ErrnoException | null, stats: realFs.Stats) => void) => {
		calls.lstat.push(path);
		fs.lstat(path, callback);
	};
	const promises = {
		...fs.promises,
		lstat: (path: string) => (calls.lstat.push(path), fs.promises.lstat(path)),
		readdir: (path: string, options: { withFileTypes: true }) => (
			calls.readdir.push(path),
			fs.promises.readdir(path, options)
		),
	};
	return { ...fs, lstat, promises, default: { ...fs, lstat, promises } };
});

let opened: WatchedFolder[] = [];
afterEach(async () => {
	for (const folder of opened) await folder.close();
	opened = [];
});

/** Real watchers, with the events each delivered (by vault-relative folder) and a way to break one. */
function recordingWatch(refuse: (folder: string) => NodeJS.ErrnoException | null = () => null) {
	const made = new Map<string, realFs.FSWatcher>();
	const events: string[] = [];
	let root = "";
	const watch: WatchFunction = (path, options, listener) => {
		const folder = path.slice(root.length + 1);
		const refusal = refuse(folder);
		if (refusal) throw refusal;
		const watcher = realFs.watch(path, options, (event, filename) => {
			events.push(filename ?? "");
			listener(event, filename);
		});
		made.set(folder, watcher);
		return watcher;
	};
	return { watch, made, events, setRoot: (value: string) => (root = value) };
}

async function open(
	files: Record<string, string>,
	watch?: ReturnType<typeof recordingWatch>,
	skip?: (path: string) => boolean,
	mode: WatchMode = "per-folder",
): Promise<WatchedFolder> {
	// The root is only known once the folder exists: the recording learns it on the first watch (of the root).
	const folder = await watchFolder(files, {
		mode,
		skip,
		watch:
			watch &&
			((path, options, listener) => (
				watch.made.size === 0 && watch.setRoot(path),
				watch.watch(path, options, listener)
			)),
	});
	opened.push(folder);
	return folder;
}

const manyNotes = (count: number) =>
	Object.fromEntries(Array.from({ length: count }, (_, i) => [`big/n${i}.md`, `note ${i}`]));

describe("FolderWatcher costs", () => {
	it("looks at a changed note with one lstat per event and never lists its folder again", async () => {
		const recording = recordingWatch();
		const t = await open(manyNotes(300), recording);
		calls.lstat.length = 0;
		calls.readdir.length = 0;
		recording.events.length = 0;
		// Saved as our writer saves: a hidden temp file renamed over the note.
		await writeFile(join(t.root, "big/.n7.md.rg-tmp-0123456789ab"), "changed");
		await rename(join(t.root, "big/.n7.md.rg-tmp-0123456789ab"), join(t.root, "big/n7.md"));
		await t.hears("modify big/n7.md");
		expect(calls.readdir).toEqual([]);
		expect(new Set(calls.lstat)).toEqual(new Set([join(t.root, "big/n7.md")]));
		expect(calls.lstat.length).toBeLessThanOrEqual(recording.events.filter((name) => name === "n7.md").length);
	});

	it("lists a new folder once, and never its parent again", async () => {
		const t = await open(manyNotes(300));
		calls.readdir.length = 0;
		await t.write({ "big/fresh/n.md": "n" });
		await t.hears("create big/fresh/n.md");
		await t.write({ "big/fresh/n.md": "n2", "big/fresh/m.md": "m" });
		await t.hears("modify big/fresh/n.md", "create big/fresh/m.md");
		expect(calls.readdir).toEqual([join(t.root, "big/fresh")]);
	});

	it("makes no fs call at all for hidden and skipped names", async () => {
		const t = await open({ "sub/n.md": "n" }, undefined, (path) => path.endsWith(".bak.md"));
		calls.lstat.length = 0;
		calls.readdir.length = 0;
		await t.write({
			"sub/.n.md.rg-tmp-0123456789ab": "t",
			".revision-guard/history.json": "{}",
			".trash/x.md": "x",
			"sub/n.20261121-101500.bak.md": "b",
		});
		await t.settled("sub");
		await t.settled();
		expect(notes(t.heard)).toEqual([]);
		expect(calls.readdir).toEqual([]);
		expect(calls.lstat.filter((path) => !path.includes("marker-"))).toEqual([]);
	});
});

describe("FolderWatcher when watching fails", () => {
	const enospc = () =>
		Object.assign(new Error("ENOSPC: System limit for number of file watchers reached"), { code: "ENOSPC" });

	it("polls a folder the system will not let it watch (inotify limits), and watches it once it can", async () => {
		let refusals = 0;
		const recording = recordingWatch((folder) =>
			folder === "stuck" && refusals++ < 3 ? enospc() : folder === "also-stuck" ? enospc() : null,
		);
		const t = await open({ "stuck/old.md": "o", "fine/a.md": "a", "also-stuck/b.md": "b" }, recording);
		// Said once, not once per folder (past the limit, every folder would say the same).
		expect(t.troubles).toEqual([expect.stringMatching(/^The folder (also-)?stuck cannot be watched \(ENOSPC\)/)]);
		await t.write({ "stuck/new.md": "n", "stuck/old.md": "changed" });
		await rm(join(t.root, "stuck/old.md"));
		await t.hears("create stuck/new.md", "delete stuck/old.md");
		// Tried again until the system agreed, and watched from then on.
		await expect.poll(() => recording.made.has("stuck"), { timeout: 10_000 }).toBe(true);
		await t.write({ "stuck/later.md": "l" });
		await t.hears("create stuck/later.md");
		await t.write({ "fine/a.md": "a2", "also-stuck/b.md": "b2" });
		await t.hears("modify fine/a.md", "modify also-stuck/b.md");
	});

	it("survives a failing watcher: the folder is polled, then watched again, and its changes are still reported", async () => {
		const recording = recordingWatch();
		const t = await open({ "sub/n.md": "n" }, recording);
		const broken = recording.made.get("sub")!;
		broken.emit("error", Object.assign(new Error("EPERM"), { code: "EPERM" }));
		expect(t.troubles).toEqual([expect.stringContaining("The folder sub lost its watcher (EPERM)")]);
		await t.write({ "sub/n.md": "changed", "sub/added.md": "a" });
		await t.hears("modify sub/n.md", "create sub/added.md");
		await expect.poll(() => recording.made.get("sub") !== broken, { timeout: 10_000 }).toBe(true);
	});

	it("survives a failing watcher of the whole tree (macOS, Windows): every folder is polled until it is watched again", async () => {
		const recording = recordingWatch();
		const t = await open({ "sub/deep/n.md": "n" }, recording, undefined, "recursive");
		const broken = recording.made.get("")!;
		broken.emit("error", Object.assign(new Error("EPERM"), { code: "EPERM" }));
		expect(t.troubles).toEqual([expect.stringContaining("The vault folder lost its watcher (EPERM)")]);
		await t.write({ "sub/deep/n.md": "changed" });
		await t.hears("modify sub/deep/n.md");
		await expect.poll(() => recording.made.get("") !== broken, { timeout: 10_000 }).toBe(true);
		await t.write({ "sub/deep/later.md": "l" });
		await t.hears("create sub/deep/later.md");
	});

	it("closes every watcher on close, and once the last listener leaves", async () => {
		const recording = recordingWatch();
		const t = await open({ "a/b/c.md": "c", "d/e.md": "e" }, recording);
		const closed: string[] = [];
		const spyOnClose = () => {
			for (const [folder, watcher] of recording.made) {
				const close = watcher.close.bind(watcher);
				watcher.close = () => (closed.push(folder), close());
			}
		};
		spyOnClose();
		expect([...recording.made.keys()].sort()).toEqual(["", "a", "a/b", "d"]);
		await t.watcher.close();
		expect(closed.sort()).toEqual(["", "a", "a/b", "d"]);
		// Another watcher on the same folder: two listeners, and only the last one leaving closes its watchers.
		recording.made.clear();
		closed.length = 0;
		const watcher = new FolderWatcher(t.root, { mode: "per-folder", watch: recording.watch });
		const heard: string[] = [];
		const first = watcher.subscribe((change) => heard.push(`${change.type} ${change.path}`));
		const second = watcher.subscribe(() => undefined);
		await watcher.watching();
		spyOnClose();
		await t.write({ "a/b/c.md": "c2" });
		await expect.poll(() => heard, { timeout: 10_000 }).toContain("modify a/b/c.md");
		second();
		expect(closed).toEqual([]);
		first();
		expect(closed.sort()).toEqual(["", "a", "a/b", "d"]);
	});
});
