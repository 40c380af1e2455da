/**
 * The folders a change makes on its way to a new note are fsynced into their parents before the change is
 * acknowledged; folders that were there all along cost no fsync; a folder another change just made is awaited; one
 * the disk failed to make durable is fsynced again by the next change into it.
 */
import fs from "fs";
import { mkdir, mkdtemp, realpath, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeFolderDurably, NewFolders } from "../../src/vault/new-folders";
import { failFolderFsync, recordFolderFsyncs } from "../helpers/failing-disk";
import { deferred, settle } from "../helpers/deferred";

let root: string;
beforeEach(async () => {
	root = await realpath(await mkdtemp(join(tmpdir(), "rg-new-folders-")));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(root, { recursive: true, force: true });
});

describe("NewFolders", () => {
	it("fsyncs the parent of every folder it made, and nothing for folders already there", async () => {
		await mkdir(join(root, "a"));
		const folders = new NewFolders();
		const disk = recordFolderFsyncs();
		await (
			await folders.make(join(root, "a"))
		).durable;
		expect(disk.folders()).toEqual([]);
		await (
			await folders.make(join(root, "a/b/c"))
		).durable;
		expect(disk.folders().sort()).toEqual([join(root, "a"), join(root, "a/b")]);
	});

	it("a change into a folder another change just made waits for that folder's fsync", async () => {
		const folders = new NewFolders();
		const held: (() => void)[] = [];
		const fsync = fs.fsync.bind(fs);
		vi.spyOn(fs, "fsync").mockImplementation((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
			held.push(() => fsync(fd, done));
		});
		const first = (await folders.make(join(root, "new"))).durable;
		const second = (await folders.make(join(root, "new"))).durable;
		let secondDone = false;
		void second.then(() => (secondDone = true));
		for (let i = 0; i < 5; i++) await settle();
		expect(held).toHaveLength(1);
		expect(secondDone).toBe(false);
		held.shift()!();
		await first;
		await second;
		expect(secondDone).toBe(true);
	});

	it("a change that finds a folder another change is still making waits for that folder's fsync", async () => {
		// Two makes at once: the first makes "shared" (its mkdir done, its answer not yet back), the second finds
		// "shared" there and makes only "shared/second". The second's note hangs on "shared"'s entry in the root all the
		// same, so it is not durable before the root is fsynced.
		const folders = new NewFolders();
		const mkdir = fs.promises.mkdir.bind(fs.promises);
		const answerFirst = deferred();
		const spy = vi.spyOn(fs.promises, "mkdir").mockImplementationOnce(async (path, options) => {
			const made = await mkdir(path, options);
			await answerFirst.promise;
			return made;
		});
		const first = folders.make(join(root, "shared/first"));
		await vi.waitFor(() => expect(fs.existsSync(join(root, "shared/first"))).toBe(true));
		spy.mockRestore();
		const disk = recordFolderFsyncs();
		const second = (await folders.make(join(root, "shared/second"))).durable;
		// The folders on disk when the second change is told it is durable.
		const onDiskWhenDone = second.then(() => disk.folders());
		await vi.waitFor(() => expect(disk.folders()).toContain(join(root, "shared")));
		await settle();
		answerFirst.release();
		await (
			await first
		).durable;
		expect(await onDiskWhenDone).toContain(root);
	});

	it("a folder the disk failed to make durable: rejects, and the next change into it fsyncs its parent again", async () => {
		const folders = new NewFolders();
		failFolderFsync("EIO");
		const failed = (await folders.make(join(root, "new/deep"))).durable;
		await expect(failed).rejects.toMatchObject({ code: "EIO" });
		vi.restoreAllMocks();
		const disk = recordFolderFsyncs();
		await (
			await folders.make(join(root, "new/deep"))
		).durable;
		expect(disk.folders().sort()).toEqual([root, join(root, "new")]);
		// Once on disk, no fsync again.
		vi.restoreAllMocks();
		const after = recordFolderFsyncs();
		await (
			await folders.make(join(root, "new/deep"))
		).durable;
		expect(after.folders()).toEqual([]);
	});
});

describe("makeFolderDurably (a vault folder the headless host creates)", () => {
	it("resolves once every folder it made is fsynced into its parent", async () => {
		const disk = recordFolderFsyncs();
		await makeFolderDurably(join(root, "new/vault"));
		expect(disk.folders().sort()).toEqual([root, join(root, "new")]);
	});

	it("rejects with the disk's error when that fsync fails", async () => {
		failFolderFsync("EIO");
		await expect(makeFolderDurably(join(root, "vault"))).rejects.toMatchObject({ code: "EIO" });
	});
});
