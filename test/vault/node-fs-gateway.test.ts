import { execFileSync } from "child_process";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import fs from "fs";
import { syncBuiltinESMExports } from "module";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { NoteEncodingError, NoteKeptChangingError, VaultPathError } from "../../src/vault/errors";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { allFiles } from "../helpers/vault-files";
import { failFolderFsync, recordFolderFsyncs } from "../helpers/failing-disk";

let root: string;
let outside: string;
let gateway: NodeFsGateway;

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "rg-gw-"));
	outside = await mkdtemp(join(tmpdir(), "rg-outside-"));
	gateway = await NodeFsGateway.open(root);
});
afterEach(async () => {
	await gateway.close();
	await rm(root, { recursive: true, force: true });
	await rm(outside, { recursive: true, force: true });
});

const write = (content: string) => () => ({ kind: "write" as const, content, result: "w" });

/** What only the Node folder does; what every gateway promises is in gateway-contract.ts. */
describe("NodeFsGateway", () => {
	it("writes atomically and creates exclusively, leaving no temp files behind (a refused create included)", async () => {
		await gateway.mutate("a/b/c.md", write("hello\n"));
		expect(await readFile(join(root, "a/b/c.md"), "utf8")).toBe("hello\n");
		expect(await readdir(join(root, "a/b"))).toEqual(["c.md"]);
		expect(await gateway.createExclusive("x/b.md", "first")).toBe(true);
		expect(await gateway.createExclusive("x/b.md", "second")).toBe(false);
		expect(await readFile(join(root, "x/b.md"), "utf8")).toBe("first");
		expect(await readdir(join(root, "x"))).toEqual(["b.md"]);
	});

	it("never lets a check race another write: a mutation lands only on what it decided on (unserialized callers included)", async () => {
		// The guarded writer serializes calls per note; even without it, no increment is lost: a decision made on a
		// note that changed before its write lands is made again (or given up), never written over the change.
		await writeFile(join(root, "n.md"), "0");
		const settled = await Promise.allSettled(
			Array.from({ length: 25 }, () =>
				gateway.mutate("n.md", (current) => ({ kind: "write", content: String(Number(current) + 1), result: null })),
			),
		);
		const landed = settled.filter((outcome) => outcome.status === "fulfilled").length;
		expect(landed).toBeGreaterThan(0);
		expect(await readFile(join(root, "n.md"), "utf8")).toBe(String(landed));
		for (const outcome of settled)
			if (outcome.status === "rejected") expect(outcome.reason).toBeInstanceOf(NoteKeptChangingError);
	});

	it("hands back a write once it is in place, with `durable` resolving only after the folder's fsync", async () => {
		await writeFile(join(root, "n.md"), "before\n");
		// atomic-file.ts opens the folder with openSync(folder, "r") and fsyncs it with fs.fsync: that fsync is held.
		const folderFds = new Set<number>();
		const held: (() => void)[] = [];
		const openSync = fs.openSync.bind(fs);
		const fsync = fs.fsync.bind(fs);
		vi.spyOn(fs, "openSync").mockImplementation((...args: Parameters<typeof fs.openSync>) => {
			const fd = openSync(...args);
			if (String(args[0]) === root && args[1] === "r") folderFds.add(fd);
			return fd;
		});
		vi.spyOn(fs, "fsync").mockImplementation((fd: number, done: (error: Error | null) => void) => {
			if (folderFds.has(fd)) held.push(() => fsync(fd, done));
			else fsync(fd, done);
		});
		try {
			const outcome = await gateway.mutate("n.md", write("after\n"));
			expect(await readFile(join(root, "n.md"), "utf8")).toBe("after\n");
			expect(held).toHaveLength(1);
			let durable = false;
			const done = outcome.durable!.then(() => (durable = true));
			await new Promise((resolve) => setImmediate(resolve));
			expect(durable).toBe(false);
			held[0]!();
			await done;
			expect(durable).toBe(true);
		} finally {
			vi.restoreAllMocks();
		}
	});

	it("moves trashed notes into .trash without overwriting earlier ones (a taken name goes into a dated folder)", async () => {
		for (let i = 0; i < 3; i++) {
			await writeFile(join(root, "n.md"), `v${i}`);
			await gateway.mutate("n.md", () => ({ kind: "trash", result: null }));
		}
		const trashed = await allFiles(join(root, ".trash"));
		expect(trashed).toHaveLength(3);
		expect(trashed).toContain("n.md");
		expect(trashed.filter((path) => /^\d{8}-\d{6}(-\d+)?\/n\.md$/.test(path))).toHaveLength(2);
		const contents = await Promise.all(trashed.map((path) => readFile(join(root, ".trash", path), "utf8")));
		expect(contents.sort()).toEqual(["v0", "v1", "v2"]);
	});

	it("trashes a note on a disk without hard links: the bytes decided on are copied exclusively, never over another file", async () => {
		const bytes = "\uFEFFcrlf\r\nno final newline";
		await writeFile(join(root, "n.md"), bytes);
		await mkdir(join(root, ".trash"));
		await writeFile(join(root, ".trash/n.md"), "already in the trash\n");
		vi.spyOn(fs, "linkSync").mockImplementation(() => {
			throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
		});
		try {
			const outcome = await gateway.mutate("n.md", (current) => ({ kind: "trash", result: current }));
			await outcome.durable;
			expect(outcome.trashedTo).toMatch(/^\.trash\/\d{8}-\d{6}\/n\.md$/);
			expect(await readFile(join(root, outcome.trashedTo!), "utf8")).toBe(bytes);
			expect(await readFile(join(root, ".trash/n.md"), "utf8")).toBe("already in the trash\n");
			expect(fs.existsSync(join(root, "n.md"))).toBe(false);
		} finally {
			vi.restoreAllMocks();
		}
	});

	it("says where in the trash each note went (a dated folder too), and hands back the delete's durability", async () => {
		const places: (string | undefined)[] = [];
		for (let i = 0; i < 2; i++) {
			await mkdir(join(root, "sub"), { recursive: true });
			await writeFile(join(root, "sub/n.md"), `v${i}`);
			const outcome = await gateway.mutate("sub/n.md", () => ({ kind: "trash", result: null }));
			await expect(outcome.durable).resolves.toBeUndefined();
			places.push(outcome.trashedTo);
		}
		expect(places[0]).toBe(".trash/sub/n.md");
		expect(places[1]).toMatch(/^\.trash\/\d{8}-\d{6}\/sub\/n\.md$/);
		for (const [i, place] of places.entries()) expect(await readFile(join(root, place!), "utf8")).toBe(`v${i}`);
	});

	it("creates a note (a .bak) exclusively in new folders only once their parents are fsynced", async () => {
		const real = await realpath(root);
		const disk = recordFolderFsyncs();
		try {
			expect(await gateway.createExclusive("Backups/2026/a.md.bak", "kept\n")).toBe(true);
			for (const folder of ["", "Backups", "Backups/2026"]) expect(disk.folders()).toContain(join(real, folder));
		} finally {
			vi.restoreAllMocks();
		}
	});

	it("a write of a note in a folder whose entry the disk failed to make durable fsyncs that folder's parent again", async () => {
		const real = await realpath(root);
		const write = (content: string) =>
			gateway.mutate("New/n.md", () => ({ kind: "write", content, result: null }) as const);
		failFolderFsync("EIO");
		try {
			// The note's new folder is not durable: the write that made it is not either.
			await expect((await write("first\n")).durable).rejects.toMatchObject({ code: "EIO" });
		} finally {
			vi.restoreAllMocks();
		}
		const disk = recordFolderFsyncs();
		try {
			// The note is there now, so this write makes no folder; it still hangs on "New"'s entry in the vault folder.
			await (
				await write("second\n")
			).durable;
			expect(disk.folders()).toContain(real);
		} finally {
			vi.restoreAllMocks();
		}
	});

	it("a delete whose folder fsync fails (EIO): the note is in the trash, and its `durable` rejects", async () => {
		await writeFile(join(root, "n.md"), "gone\n");
		failFolderFsync("EIO");
		try {
			const outcome = await gateway.mutate("n.md", () => ({ kind: "trash", result: null }));
			// Left alone for a while, as the writer leaves it until its lock is released: no unhandled rejection.
			await new Promise((resolve) => setTimeout(resolve, 20));
			await expect(outcome.durable).rejects.toMatchObject({ code: "EIO" });
			expect(await readFile(join(root, ".trash/n.md"), "utf8")).toBe("gone\n");
			expect(await gateway.read("n.md")).toBeNull();
		} finally {
			vi.restoreAllMocks();
		}
	});

	it("deletes a note that is a symbolic link as a name: the link goes to the trash, the note it points to stays", async () => {
		const real = await realpath(root);
		await mkdir(join(root, "notes"));
		await mkdir(join(root, "real"));
		await writeFile(join(root, "real/real.md"), "real\n");
		await symlink(join(root, "real/real.md"), join(root, "notes/link.md"));
		const disk = recordFolderFsyncs();
		try {
			const outcome = await gateway.mutate("notes/link.md", (current) => ({ kind: "trash", result: current }));
			// The decision was made on the content read through the link.
			expect(outcome.result).toBe("real\n");
			await expect(outcome.durable).resolves.toBeUndefined();
			expect(outcome.trashedTo).toBe(".trash/notes/link.md");
			expect((await fs.promises.lstat(join(root, outcome.trashedTo!))).isSymbolicLink()).toBe(true);
			expect(disk.folders()).toEqual(expect.arrayContaining([join(real, "notes"), join(real, ".trash/notes")]));
		} finally {
			vi.restoreAllMocks();
		}
		expect(await readFile(join(root, "real/real.md"), "utf8")).toBe("real\n");
		expect(await readdir(join(root, "notes"))).toEqual([]);
		expect((await gateway.read("real/real.md"))?.content).toBe("real\n");
		expect(await gateway.read("notes/link.md")).toBeNull();
	});

	it("deletes nothing through a link whose note changed since it was read, and a link swapped for a file is not the link", async () => {
		await writeFile(join(root, "real.md"), "real\n");
		await symlink(join(root, "real.md"), join(root, "link.md"));
		// The name is a plain file by the time of the move: what the caller decided on (the link's note) is not there.
		let swapped = false;
		const outcome = await gateway.mutate("link.md", (current) => {
			if (!swapped) {
				swapped = true;
				fs.rmSync(join(root, "link.md"));
				fs.writeFileSync(join(root, "link.md"), "a file now\n");
				return { kind: "trash", result: current };
			}
			return { kind: "keep", result: current };
		});
		expect(outcome.result).toBe("a file now\n");
		expect(await readFile(join(root, "link.md"), "utf8")).toBe("a file now\n");
		expect(await readFile(join(root, "real.md"), "utf8")).toBe("real\n");
		expect(fs.existsSync(join(root, ".trash/link.md"))).toBe(false);
	});

	it("trashes a note whose path clashes with a file already in the trash (a note once named like its folder)", async () => {
		await writeFile(join(root, "a.md"), "was a note");
		await gateway.mutate("a.md", () => ({ kind: "trash", result: null }));
		await mkdir(join(root, "a.md"));
		await writeFile(join(root, "a.md/child.md"), "child");
		await gateway.mutate("a.md/child.md", () => ({ kind: "trash", result: null }));
		const trashed = await allFiles(join(root, ".trash"));
		expect(trashed).toHaveLength(2);
		expect(trashed).toContain("a.md");
		expect(trashed.some((path) => path.endsWith("/a.md/child.md"))).toBe(true);
	});

	it("does not follow a symlink that leads outside the folder, for reading or writing", async () => {
		await writeFile(join(outside, "secret.md"), "secret");
		await symlink(join(outside, "secret.md"), join(root, "link.md"));
		await symlink(outside, join(root, "dir"));
		await expect(gateway.read("link.md")).rejects.toBeInstanceOf(VaultPathError);
		await expect(gateway.mutate("link.md", write("pwned"))).rejects.toBeInstanceOf(VaultPathError);
		await expect(gateway.mutate("dir/new.md", write("pwned"))).rejects.toBeInstanceOf(VaultPathError);
		// An existing note behind the symlinked folder: the decision read checks the file it opened.
		await expect(gateway.mutate("dir/secret.md", write("pwned"))).rejects.toBeInstanceOf(VaultPathError);
		await expect(gateway.createExclusive("dir/x.md", "pwned")).rejects.toBeInstanceOf(VaultPathError);
		expect(await readFile(join(outside, "secret.md"), "utf8")).toBe("secret");
		expect(await readdir(outside)).toEqual(["secret.md"]);
	});

	it("lets the event loop turn on every read, so a loop of reads (a start-up reconcile) never starves other work", async () => {
		for (let i = 0; i < 20; i++) await writeFile(join(root, `n${i}.md`), `note ${i}\n`);
		let turns = 0;
		let reads = 0;
		// A callback queued for the next turn of the loop, again and again, while the notes are read one after another.
		const tick = () => {
			turns++;
			if (reads < 20) setImmediate(tick);
		};
		setImmediate(tick);
		for (; reads < 20; reads++) expect((await gateway.read(`n${reads}.md`))?.content).toBe(`note ${reads}\n`);
		expect(turns).toBeGreaterThanOrEqual(20);
	});

	it("still refuses a symlink leading outside when /proc cannot name the opened file (it resolves the name instead)", async () => {
		await writeFile(join(outside, "secret.md"), "secret");
		await symlink(join(outside, "secret.md"), join(root, "link.md"));
		await writeFile(join(root, "plain.md"), "plain\n");
		// read-file.ts imports readlinkSync by name: the builtin's named exports follow the spy once synced.
		const readlink = fs.readlinkSync.bind(fs) as (path: string) => string;
		const spy = vi.spyOn(fs, "readlinkSync").mockImplementation(((path: string) => {
			if (String(path).startsWith("/proc/self/fd/")) throw Object.assign(new Error("no /proc"), { code: "ENOENT" });
			return readlink(path);
		}) as never);
		syncBuiltinESMExports();
		try {
			await expect(gateway.read("link.md")).rejects.toBeInstanceOf(VaultPathError);
			await expect(gateway.mutate("link.md", write("pwned"))).rejects.toBeInstanceOf(VaultPathError);
			expect((await gateway.read("plain.md"))?.content).toBe("plain\n");
		} finally {
			spy.mockRestore();
			syncBuiltinESMExports();
		}
		expect(await readFile(join(outside, "secret.md"), "utf8")).toBe("secret");
	});

	it("follows a symlink that stays inside the folder", async () => {
		await mkdir(join(root, "real"));
		await writeFile(join(root, "real/n.md"), "inside");
		await symlink(join(root, "real"), join(root, "alias"));
		expect((await gateway.read("alias/n.md"))?.content).toBe("inside");
		await gateway.mutate("alias/n.md", write("written through the alias"));
		expect(await readFile(join(root, "real/n.md"), "utf8")).toBe("written through the alias");
		expect((await readdir(join(root, "real"))).sort()).toEqual(["n.md"]);
	});

	it("lists and walks no symlinks, not even ones that stay inside the folder", async () => {
		// Hidden entries and missing folders are the gateway contract's (gateway-contract.ts); symlinks are this gateway's.
		await mkdir(join(root, "sub"));
		await writeFile(join(root, "a.md"), "a");
		await writeFile(join(root, "b.txt"), "b");
		await writeFile(join(root, "sub/c.md"), "c");
		await symlink(join(root, "a.md"), join(root, "ln.md"));
		await symlink(join(root, "sub"), join(root, "alias"));
		expect((await gateway.list(""))!.map((entry) => entry.path)).toEqual(["a.md", "b.txt", "sub/"]);
		expect((await gateway.listNotes(["md"])).sort()).toEqual(["a.md", "sub/c.md"]);
	});

	it("answers a FIFO named like a note as no note, without hanging", async () => {
		execFileSync("mkfifo", [join(root, "pipe.md")]);
		expect(await gateway.read("pipe.md")).toBeNull();
	});

	it("reports edits made by other programs", async () => {
		const changes: string[] = [];
		gateway.onChange((change) => changes.push(`${change.type} ${change.path}`));
		await gateway.watching();
		await writeFile(join(root, "new.md"), "x");
		await expect.poll(() => changes, { timeout: 3000 }).toContain("create new.md");
		await writeFile(join(root, "new.md"), "y");
		await expect.poll(() => changes, { timeout: 3000 }).toContain("modify new.md");
		await rm(join(root, "new.md"));
		await expect.poll(() => changes, { timeout: 3000 }).toContain("delete new.md");
	});
});

describe("NodeFsGateway with a temp folder of its own (the headless host's)", () => {
	const TEMPS = ".revision-guard/tmp";
	let withTemps: NodeFsGateway;
	beforeEach(async () => {
		withTemps = await NodeFsGateway.open(root, ".trash", TEMPS);
	});
	afterEach(() => withTemps.close());

	/** The paths of the temp files the gateway opens while `run` runs. */
	async function tempsOpenedDuring(run: () => Promise<unknown>): Promise<string[]> {
		const opened: string[] = [];
		const open = fs.open.bind(fs) as (...args: unknown[]) => void;
		const spy = vi.spyOn(fs, "open").mockImplementation((...args: unknown[]) => {
			if (String(args[0]).includes(".rg-tmp-")) opened.push(String(args[0]));
			return open(...args);
		});
		try {
			await run();
		} finally {
			spy.mockRestore();
		}
		return opened;
	}

	it("writes temp files there, never beside the note (no watcher sees them), and leaves none behind", async () => {
		const opened = await tempsOpenedDuring(async () => {
			await withTemps.mutate("a/b/c.md", write("hello\n"));
			await withTemps.mutate("a/b/c.md", write("again\n"));
			expect(await withTemps.createExclusive("a/b/new.md", "first")).toBe(true);
		});
		expect(opened).toHaveLength(3);
		for (const path of opened) expect(path.startsWith(join(root, TEMPS) + "/")).toBe(true);
		expect(await readFile(join(root, "a/b/c.md"), "utf8")).toBe("again\n");
		expect((await readdir(join(root, "a/b"))).sort()).toEqual(["c.md", "new.md"]);
		expect(await readdir(join(root, TEMPS))).toEqual([]);
	});

	it("writes beside the note when the rename cannot cross file systems (EXDEV), and from then on for that folder", async () => {
		await mkdir(join(root, "mounted"));
		const rename = fs.renameSync.bind(fs);
		const link = fs.promises.link.bind(fs.promises);
		const fromTemps = (path: unknown) => String(path).startsWith(join(root, TEMPS));
		const crossDevice = () => Object.assign(new Error("EXDEV: cross-device link not permitted"), { code: "EXDEV" });
		const renameSpy = vi.spyOn(fs, "renameSync").mockImplementation(((from: string, to: string) => {
			if (fromTemps(from) && String(to).startsWith(join(root, "mounted"))) throw crossDevice();
			return rename(from, to);
		}) as never);
		const linkSpy = vi.spyOn(fs.promises, "link").mockImplementation((async (from: string, to: string) => {
			if (fromTemps(from) && String(to).startsWith(join(root, "mounted"))) throw crossDevice();
			return link(from, to);
		}) as never);
		syncBuiltinESMExports();
		try {
			const first = await tempsOpenedDuring(() => withTemps.mutate("mounted/n.md", write("one\n")));
			expect(first.map((path) => fromTemps(path))).toEqual([true, false]);
			expect(await readFile(join(root, "mounted/n.md"), "utf8")).toBe("one\n");
			const later = await tempsOpenedDuring(async () => {
				await withTemps.mutate("mounted/n.md", write("two\n"));
				expect(await withTemps.createExclusive("mounted/b.md", "bak")).toBe(true);
			});
			expect(later.some((path) => fromTemps(path))).toBe(false);
			expect(await readFile(join(root, "mounted/n.md"), "utf8")).toBe("two\n");
			expect(await readFile(join(root, "mounted/b.md"), "utf8")).toBe("bak");
			// A folder on the same file system still has its temps in the temp folder.
			expect(
				(await tempsOpenedDuring(() => withTemps.mutate("n.md", write("here\n")))).every((path) => fromTemps(path)),
			).toBe(true);
		} finally {
			renameSpy.mockRestore();
			linkSpy.mockRestore();
			syncBuiltinESMExports();
		}
		expect((await readdir(join(root, "mounted"))).sort()).toEqual(["b.md", "n.md"]);
		expect(await readdir(join(root, TEMPS))).toEqual([]);
	});

	it("makes a .bak beside the note when the link cannot cross file systems (EXDEV)", async () => {
		await mkdir(join(root, "other"));
		const link = fs.promises.link.bind(fs.promises);
		const spy = vi.spyOn(fs.promises, "link").mockImplementation((async (from: string, to: string) => {
			if (String(from).startsWith(join(root, TEMPS)) && String(to).startsWith(join(root, "other")))
				throw Object.assign(new Error("EXDEV"), { code: "EXDEV" });
			return link(from, to);
		}) as never);
		try {
			expect(await withTemps.createExclusive("other/n.bak.md", "kept\n")).toBe(true);
			expect(await withTemps.createExclusive("other/n.bak.md", "again\n")).toBe(false);
		} finally {
			spy.mockRestore();
		}
		expect(await readFile(join(root, "other/n.bak.md"), "utf8")).toBe("kept\n");
		expect(await readdir(join(root, "other"))).toEqual(["n.bak.md"]);
	});

	it("puts temps beside the note when the temp folder cannot be made (a file in its place)", async () => {
		const dir = await mkdtemp(join(tmpdir(), "rg-gw-notemps-"));
		try {
			await writeFile(join(dir, ".revision-guard"), "a file where the state folder goes");
			const blocked = await NodeFsGateway.open(dir, ".trash", TEMPS);
			try {
				const opened = await tempsOpenedDuring(() => blocked.mutate("n.md", write("still written\n")));
				expect(opened).toHaveLength(1);
				expect(opened[0]!.startsWith(join(dir, ".n.md.rg-tmp-"))).toBe(true);
				expect(await readFile(join(dir, "n.md"), "utf8")).toBe("still written\n");
			} finally {
				await blocked.close();
			}
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});

/** The notes the running watcher listed (knownNotes), so a start-up's reconcile does not list the vault again. */
describe("NodeFsGateway.knownNotes (listNotes, watched)", () => {
	it("has no listing until the watcher runs, then the regular notes listNotes finds, kept current by events", async () => {
		await mkdir(join(root, "sub/deeper"), { recursive: true });
		await writeFile(join(root, "a.md"), "a\n");
		await writeFile(join(root, "sub/b.md"), "b\n");
		await writeFile(join(root, "sub/deeper/c.MD"), "c\n");
		await writeFile(join(root, "sub/image.png"), "png");
		await mkdir(join(root, ".hidden"));
		await writeFile(join(root, ".hidden/h.md"), "hidden\n");
		await symlink(join(root, "a.md"), join(root, "link.md"));
		await writeFile(join(outside, "o.md"), "outside\n");
		await symlink(outside, join(root, "linked-folder"));
		expect(await gateway.knownNotes(["md"])).toBeNull();
		const changes: string[] = [];
		const stop = gateway.onChange((change) => changes.push(`${change.type} ${change.path}`));
		try {
			const known = await gateway.knownNotes(["md"]);
			expect(known?.sort()).toEqual((await gateway.listNotes(["md"])).sort());
			expect(known?.sort()).toEqual(["a.md", "sub/b.md", "sub/deeper/c.MD"]);
			expect((await gateway.listNotes(["md"], { watched: true })).sort()).toEqual(known?.sort());
			await writeFile(join(root, "sub/new.md"), "new\n");
			// A request's listing is made now, whatever the watcher has heard of yet.
			expect(await gateway.listNotes(["md"])).toContain("sub/new.md");
			await rm(join(root, "a.md"));
			await vi.waitFor(() => expect(changes).toEqual(expect.arrayContaining(["create sub/new.md", "delete a.md"])));
			expect((await gateway.knownNotes(["md"]))?.sort()).toEqual(["sub/b.md", "sub/deeper/c.MD", "sub/new.md"]);
			// A note replaced by a link under its name is no longer a regular note (listNotes does not list links either).
			changes.length = 0;
			await rm(join(root, "sub/b.md"));
			await symlink(join(root, "sub/new.md"), join(root, "sub/b.md"));
			await vi.waitFor(async () => expect(await gateway.knownNotes(["md"])).toEqual(["sub/new.md", "sub/deeper/c.MD"]));
			expect(await gateway.listNotes(["md"])).toEqual(expect.not.arrayContaining(["sub/b.md"]));
		} finally {
			stop();
		}
		expect(await gateway.knownNotes(["md"])).toBeNull();
	});
});

/** The start-up reconcile's look at a note (scanNow): as `read` sees it, at once. */
describe("NodeFsGateway.scanNow", () => {
	it("gives the note as read gives it, with the revision of its bytes, its text decoded only when asked", async () => {
		const text = "\uFEFF# Title\n\nnaïve ✓\n";
		await writeFile(join(root, "n.md"), text);
		const scan = gateway.scanNow("n.md", undefined);
		const read = await gateway.read("n.md");
		expect(scan?.kind).toBe("read");
		if (scan?.kind !== "read") return;
		expect(scan.revision).toBe(revisionOf(text));
		expect(scan.text()).toBe(read!.content);
		expect(scan.stat).toEqual(read!.stat);
	});

	it("says unchanged only while the recorded identity still holds, and missing for no note", async () => {
		await writeFile(join(root, "n.md"), "one\n");
		const identity = (await gateway.identity("n.md"))!;
		expect(gateway.scanNow("n.md", identity)).toEqual({ kind: "unchanged" });
		await writeFile(join(root, "n.md"), "two, longer\n");
		expect(gateway.scanNow("n.md", identity)?.kind).toBe("read");
		expect(gateway.scanNow("gone.md", identity)).toEqual({ kind: "missing" });
		expect(gateway.scanNow("gone/too.md", undefined)).toEqual({ kind: "missing" });
	});

	it("refuses what read refuses (not UTF-8, outside the folder) and leaves a large note to read", async () => {
		await writeFile(join(root, "bad.md"), Buffer.from([0x61, 0xff, 0x62]));
		expect(() => gateway.scanNow("bad.md", undefined)).toThrow(NoteEncodingError);
		await writeFile(join(outside, "secret.md"), "secret\n");
		await symlink(outside, join(root, "dir"));
		expect(() => gateway.scanNow("dir/secret.md", undefined)).toThrow(VaultPathError);
		await writeFile(join(root, "big.md"), "x".repeat(300 * 1024));
		expect(gateway.scanNow("big.md", undefined)).toBeUndefined();
	});

	it("gives a scanned note's text only until the next scan, which may read into the same memory", async () => {
		await writeFile(join(root, "one.md"), "one\n");
		await writeFile(join(root, "two.md"), "two\n");
		const one = gateway.scanNow("one.md", undefined);
		if (one?.kind !== "read") throw new Error("one.md was not read");
		expect(one.text()).toBe("one\n");
		const two = gateway.scanNow("two.md", undefined);
		if (two?.kind !== "read") throw new Error("two.md was not read");
		expect(() => one.text()).toThrow(/no longer at hand/);
		expect(two.text()).toBe("two\n");
		expect(one.revision).toBe(revisionOf("one\n"));
	});

	it("leaves a note that is a symbolic link to read, which follows it inside the vault and refuses it outside", async () => {
		await writeFile(join(root, "real.md"), "real\n");
		await symlink(join(root, "real.md"), join(root, "alias.md"));
		expect(gateway.scanNow("alias.md", undefined)).toBeUndefined();
		expect((await gateway.read("alias.md"))?.content).toBe("real\n");
		await writeFile(join(outside, "secret.md"), "secret\n");
		await symlink(join(outside, "secret.md"), join(root, "leak.md"));
		expect(gateway.scanNow("leak.md", undefined)).toBeUndefined();
		await expect(gateway.read("leak.md")).rejects.toThrow(VaultPathError);
	});

	it("checks a folder afresh once a scan is over: one swapped for a link outside the vault is refused", async () => {
		await mkdir(join(root, "a"));
		await writeFile(join(root, "a/n.md"), "inside\n");
		expect(gateway.scanNow("a/n.md", undefined)?.kind).toBe("read");
		gateway.endScan();
		await rm(join(root, "a"), { recursive: true });
		await writeFile(join(outside, "n.md"), "outside\n");
		await symlink(outside, join(root, "a"));
		expect(() => gateway.scanNow("a/n.md", undefined)).toThrow(VaultPathError);
	});
});
