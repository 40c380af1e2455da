/**
 * How atomic-file.ts makes a file durable before it takes its name: a small file by a write opened with O_DSYNC (the
 * write returns once the bytes are on disk), anything else by an fsync; in both cases the rename comes only after.
 */
import fs from "fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "fs/promises";
import { syncBuiltinESMExports } from "module";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFileExclusive, fsyncFolder, replaceFileAtomic, writeFileAtomic } from "../../src/vault/atomic-file";
import { failFolderFsync } from "../helpers/failing-disk";

let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "rg-atomic-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	syncBuiltinESMExports();
	await rm(folder, { recursive: true, force: true });
});

type Step = { step: "open" | "write" | "written" | "fsync" | "synced" | "rename"; fd?: number; flags?: unknown };

/** Records the temp file's open (with its flags), its writes and fsyncs (asked and done), and the rename. */
function recordSteps(): { steps: Step[]; tempFds: Set<number> } {
	const steps: Step[] = [];
	const tempFds = new Set<number>();
	const open = fs.open.bind(fs) as (...args: unknown[]) => void;
	vi.spyOn(fs, "open").mockImplementation((...args: unknown[]) => {
		const callback = args[args.length - 1] as (error: Error | null, fd: number) => void;
		open(...args.slice(0, -1), (error: Error | null, fd: number) => {
			if (!error) {
				tempFds.add(fd);
				steps.push({ step: "open", fd, flags: args[1] });
			}
			callback(error, fd);
		});
	});
	const write = fs.write.bind(fs) as (...args: unknown[]) => void;
	vi.spyOn(fs, "write").mockImplementation((...args: unknown[]) => {
		const callback = args[args.length - 1] as (...result: unknown[]) => void;
		steps.push({ step: "write", fd: args[0] as number });
		write(...args.slice(0, -1), (...result: unknown[]) => {
			steps.push({ step: "written", fd: args[0] as number });
			callback(...result);
		});
	});
	const fsync = fs.fsync.bind(fs);
	vi.spyOn(fs, "fsync").mockImplementation((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
		steps.push({ step: "fsync", fd });
		fsync(fd, (error) => {
			steps.push({ step: "synced", fd });
			callback(error);
		});
	});
	// A replace checked just before its rename renames synchronously; a plain write, through the promise API.
	const renameSync = fs.renameSync.bind(fs);
	vi.spyOn(fs, "renameSync").mockImplementation((from, to) => {
		steps.push({ step: "rename" });
		renameSync(from, to);
	});
	// atomic-file.ts imports renameSync by name: its binding follows the spy once the built-in exports are synced.
	syncBuiltinESMExports();
	const rename = fs.promises.rename.bind(fs.promises);
	vi.spyOn(fs.promises, "rename").mockImplementation(async (from, to) => {
		steps.push({ step: "rename" });
		return rename(from, to);
	});
	return { steps, tempFds };
}

/** The temp file's steps up to its rename (after it, the folder's descriptor may reuse the temp file's number). */
function tempSteps(steps: Step[], tempFds: Set<number>): Step["step"][] {
	const upToRename = steps.slice(0, steps.findIndex((step) => step.step === "rename") + 1);
	return upToRename.filter((step) => step.step === "rename" || tempFds.has(step.fd!)).map((step) => step.step);
}

describe.runIf(fs.constants.O_DSYNC !== undefined)("a small durable file (where the platform has O_DSYNC)", () => {
	it("is written once, opened with O_DSYNC, and renamed only after that write returned: no separate fsync", async () => {
		const target = join(folder, "note.md");
		await writeFile(target, "before\n");
		const { steps, tempFds } = recordSteps();
		const replaced = await replaceFileAtomic(target, "after\n", { stillCurrent: () => true });
		await replaced!.durable;
		expect(await readFile(target, "utf8")).toBe("after\n");
		const open = steps.find((step) => step.step === "open")!;
		expect(typeof open.flags).toBe("number");
		expect((open.flags as number) & fs.constants.O_DSYNC).toBe(fs.constants.O_DSYNC);
		expect((open.flags as number) & fs.constants.O_EXCL).toBe(fs.constants.O_EXCL);
		expect(tempSteps(steps, tempFds)).toEqual(["open", "write", "written", "rename"]);
	});

	it("fails whole when its durable write fails: nothing replaced, no temp file left", async () => {
		const target = join(folder, "note.md");
		await writeFile(target, "before\n");
		vi.spyOn(fs, "write").mockImplementation((...args: unknown[]) => {
			const callback = args[args.length - 1] as (error: NodeJS.ErrnoException | null, written: number) => void;
			const error: NodeJS.ErrnoException = new Error("EIO: i/o error, write");
			error.code = "EIO";
			setImmediate(() => callback(error, 0));
		});
		const rename = vi.spyOn(fs, "renameSync");
		syncBuiltinESMExports();
		await expect(replaceFileAtomic(target, "after\n", { stillCurrent: () => true })).rejects.toThrow("EIO");
		expect(rename).not.toHaveBeenCalled();
		expect(await readFile(target, "utf8")).toBe("before\n");
		expect(await readdir(folder)).toEqual(["note.md"]);
	});

	it("keeps writing after a short write, each part durable, and lands every byte", async () => {
		const target = join(folder, "note.md");
		const content = "x".repeat(10_000);
		const write = fs.write.bind(fs) as (...args: unknown[]) => void;
		let calls = 0;
		vi.spyOn(fs, "write").mockImplementation((...args: unknown[]) => {
			calls++;
			// The first write is cut short (a regular file rarely does this, but the API allows it).
			if (calls === 1) args[3] = 100;
			write(...args);
		});
		const fsync = vi.spyOn(fs, "fsync");
		await writeFileAtomic(target, content);
		expect(await readFile(target, "utf8")).toBe(content);
		expect(calls).toBe(2);
		// Only the folder is fsynced: each write returned once durable.
		expect(fsync).toHaveBeenCalledTimes(1);
	});
});

describe("the files that are fsynced instead", () => {
	it("an empty durable file: no write to carry the sync, so the file is fsynced before the rename", async () => {
		const target = join(folder, "empty.md");
		const { steps, tempFds } = recordSteps();
		await writeFileAtomic(target, "");
		expect(await readFile(target, "utf8")).toBe("");
		expect(steps.find((step) => step.step === "open")!.flags).toBe("wx");
		expect(tempSteps(steps, tempFds)).toEqual(["open", "fsync", "synced", "rename"]);
	});

	it("a large durable file: written in pieces on the pool, then fsynced, then renamed", async () => {
		const target = join(folder, "large.md");
		const content = "y".repeat(300 * 1024);
		const { steps, tempFds } = recordSteps();
		await writeFileAtomic(target, content);
		expect(await readFile(target, "utf8")).toBe(content);
		expect(steps.find((step) => step.step === "open")!.flags).toBe("wx");
		const order = tempSteps(steps, tempFds).filter((step) => step !== "write" && step !== "written");
		expect(order).toEqual(["open", "fsync", "synced", "rename"]);
	});

	it("a file that need not be durable: neither O_DSYNC nor an fsync", async () => {
		const target = join(folder, "cache.bin");
		const { steps, tempFds } = recordSteps();
		await writeFileAtomic(target, "cached", { durable: false });
		expect(await readFile(target, "utf8")).toBe("cached");
		expect(steps.find((step) => step.step === "open")!.flags).toBe("wx");
		expect(tempSteps(steps, tempFds)).toEqual(["open", "rename"]);
		expect(steps.some((step) => step.step === "fsync")).toBe(false);
	});
});

/**
 * A folder fsync that fails with an I/O error means the rename may not survive a crash: the write must not be
 * acknowledged as durable. A platform that cannot fsync a folder at all is no such failure: the rename is as durable
 * as it makes renames.
 */
describe("a folder fsync that fails", () => {
	it.each(["EIO", "ENOSPC", "EDQUOT", "EROFS"])(
		"with %s: fsyncFolder rejects, and so does a durable write",
		async (code) => {
			const disk = failFolderFsync(code);
			await expect(fsyncFolder(folder)).rejects.toMatchObject({ code });
			const target = join(folder, "a.md");
			await expect(writeFileAtomic(target, "text\n")).rejects.toMatchObject({ code });
			// The new content is in place (the rename happened): only its durability is in doubt.
			expect(await readFile(target, "utf8")).toBe("text\n");
			expect(disk.failed()).toBe(2);
		},
	);

	it("with EIO: a replace resolves once in place, and its `durable` rejects (handled: no unhandled rejection)", async () => {
		failFolderFsync("EIO");
		const target = join(folder, "a.md");
		const replaced = await replaceFileAtomic(target, "text\n");
		expect(replaced).not.toBeNull();
		// Left alone for a while, as a writer's bookkeeping leaves it before it awaits it.
		await new Promise((resolve) => setTimeout(resolve, 20));
		await expect(replaced!.durable).rejects.toMatchObject({ code: "EIO" });
		expect(await readFile(target, "utf8")).toBe("text\n");
	});

	it("with EIO: a file created exclusively is in place, and the creation rejects", async () => {
		failFolderFsync("EIO");
		const target = join(folder, "a.md.bak");
		await expect(createFileExclusive(target, "kept\n")).rejects.toMatchObject({ code: "EIO" });
		expect(await readFile(target, "utf8")).toBe("kept\n");
	});

	it.each(["EINVAL", "EISDIR", "EPERM", "EBADF", "ENOTSUP", "EOPNOTSUPP"])(
		"with %s (the platform cannot fsync a folder): fsyncFolder resolves, and the write is answered",
		async (code) => {
			failFolderFsync(code);
			await expect(fsyncFolder(folder)).resolves.toBeUndefined();
			await expect(writeFileAtomic(join(folder, "a.md"), "text\n")).resolves.not.toBeNull();
		},
	);

	it.each(["EMFILE", "ENFILE", "ENOMEM", "EIO"])(
		"a folder not opened for want of descriptors or memory, or an I/O error (%s): fsyncFolder rejects",
		async (code) => {
			const openSync = fs.openSync.bind(fs);
			vi.spyOn(fs, "openSync").mockImplementation((path, ...rest) => {
				if (path === folder) throw Object.assign(new Error(`${code}: open of a folder failed`), { code });
				return openSync(path, ...(rest as [fs.OpenMode]));
			});
			// Nothing was fsynced: the rename is not known to be durable, so it is not acknowledged as such.
			await expect(fsyncFolder(folder)).rejects.toMatchObject({ code });
			await expect(writeFileAtomic(join(folder, "a.md"), "text\n")).rejects.toMatchObject({ code });
		},
	);

	it("a folder that cannot be opened (gone, or not one this platform opens): fsyncFolder resolves", async () => {
		await expect(fsyncFolder(join(folder, "missing"))).resolves.toBeUndefined();
	});
});
