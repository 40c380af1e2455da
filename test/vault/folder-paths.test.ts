/**
 * FolderPaths.throughLink: whether a path below the folder goes through a symbolic link (keys with scope lists reach
 * notes only by their own names; scope-symlinks.test.ts has the behaviour over REST).
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FolderPaths } from "../../src/vault/folder-paths";

let root: string;
let paths: FolderPaths;
beforeEach(async () => {
	root = await realpath(await mkdtemp(join(tmpdir(), "rg-paths-")));
	paths = new FolderPaths(root);
	await mkdir(join(root, "Public"));
	await mkdir(join(root, "Secret"));
	await writeFile(join(root, "Public/a.md"), "a\n");
	await writeFile(join(root, "Secret/s.md"), "s\n");
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("FolderPaths.throughLink", () => {
	it("says no for a note, a folder, and a path that does not exist yet, however deep", () => {
		expect(paths.throughLink("Public/a.md")).toBe(false);
		expect(paths.throughLink("Public")).toBe(false);
		expect(paths.throughLink("Public/new/deeper/n.md")).toBe(false);
	});

	it("says yes for a note that is a link, and for any path through a linked folder, existing or not", async () => {
		await symlink(join(root, "Secret/s.md"), join(root, "Public/link.md"));
		await symlink(join(root, "Secret"), join(root, "Public/dir"));
		expect(paths.throughLink("Public/link.md")).toBe(true);
		expect(paths.throughLink("Public/dir/s.md")).toBe(true);
		expect(paths.throughLink("Public/dir/new.md")).toBe(true);
		expect(paths.throughLink("Public/dir")).toBe(true);
	});

	it("says yes for a dangling link (what it would reach is not its name's to say)", async () => {
		await symlink(join(root, "Secret/gone.md"), join(root, "Public/dangling.md"));
		expect(paths.throughLink("Public/dangling.md")).toBe(true);
	});

	it("says no where a file stands in place of a folder of the path (nothing further along exists)", () => {
		expect(paths.throughLink("Public/a.md/x.md")).toBe(false);
	});
});
