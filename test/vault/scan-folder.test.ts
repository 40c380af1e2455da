import { closeSync, openSync, readSync } from "fs";
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VaultPathError } from "../../src/vault/errors";
import { FolderPaths } from "../../src/vault/folder-paths";
import { NO_FOLLOW, RECHECK_MS, ScanFolders } from "../../src/vault/scan-folder";

let root: string;
let outside: string;
let clock = 0;
let folders: ScanFolders;

beforeEach(async () => {
	root = await realpath(await mkdtemp(join(tmpdir(), "rg-scan-")));
	outside = await realpath(await mkdtemp(join(tmpdir(), "rg-scan-outside-")));
	const paths = new FolderPaths(root);
	clock = 0;
	folders = new ScanFolders(
		root,
		(path, real) => paths.assertInside(path, real),
		() => clock,
	);
});
afterEach(async () => {
	folders.release();
	await rm(root, { recursive: true, force: true });
	await rm(outside, { recursive: true, force: true });
});

/** What opening `path` the way the scan does (through its folder, never following the note itself) reads. */
function readThrough(path: string): string {
	const fd = openSync(path, NO_FOLLOW);
	try {
		const buffer = Buffer.alloc(64);
		return buffer.subarray(0, readSync(fd, buffer)).toString();
	} finally {
		closeSync(fd);
	}
}

/** The error code `act` throws with (undefined when it does not throw). */
function codeOf(act: () => unknown): string | undefined {
	try {
		act();
		return undefined;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code;
	}
}

// Linux only: elsewhere the scan checks each opened note itself (read-file.ts), and pathFor says so with null.
describe.runIf(process.platform === "linux")("ScanFolders", () => {
	it("opens a note as an entry of its checked folder, one folder held at a time (the root's notes too)", async () => {
		await mkdir(join(root, "a"));
		await writeFile(join(root, "a/n.md"), "in a\n");
		await writeFile(join(root, "top.md"), "at the root\n");
		const first = folders.pathFor("a/n.md")!;
		expect(first).toMatch(/^\/proc\/self\/fd\/\d+\/n\.md$/);
		expect(readThrough(first)).toBe("in a\n");
		expect(readThrough(folders.pathFor("top.md")!)).toBe("at the root\n");
	});

	it("refuses a folder that leads outside the vault, and a note that is a symbolic link is not followed", async () => {
		await writeFile(join(outside, "secret.md"), "secret\n");
		await symlink(outside, join(root, "dir"));
		expect(() => folders.pathFor("dir/secret.md")).toThrow(VaultPathError);
		await symlink(join(outside, "secret.md"), join(root, "link.md"));
		expect(codeOf(() => readThrough(folders.pathFor("link.md")!))).toBe("ELOOP");
	});

	it("checks a held folder again once it has been held a while: one moved out of the vault is not read through", async () => {
		await mkdir(join(root, "a"));
		await writeFile(join(root, "a/n.md"), "in a\n");
		expect(readThrough(folders.pathFor("a/n.md")!)).toBe("in a\n");
		// The folder moves out of the vault, and a link to where it went takes its place.
		await rename(join(root, "a"), join(outside, "a"));
		await symlink(join(outside, "a"), join(root, "a"));
		clock += RECHECK_MS;
		expect(() => folders.pathFor("a/n.md")).toThrow(VaultPathError);
	});

	it("opens a folder again after it was let go (the scan is over), and a missing folder fails as the open does", async () => {
		await mkdir(join(root, "a"));
		await writeFile(join(root, "a/n.md"), "one\n");
		expect(readThrough(folders.pathFor("a/n.md")!)).toBe("one\n");
		folders.release();
		await rm(join(root, "a"), { recursive: true });
		expect(codeOf(() => folders.pathFor("a/n.md"))).toBe("ENOENT");
		await mkdir(join(root, "a"));
		await writeFile(join(root, "a/n.md"), "two\n");
		expect(readThrough(folders.pathFor("a/n.md")!)).toBe("two\n");
	});
});
