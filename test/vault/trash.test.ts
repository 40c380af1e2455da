/**
 * The headless trash (trash.ts): a deleted note moves in without ever replacing what is there, even a file another
 * program puts at the chosen name between the look for a free name and the move.
 */
import fs from "fs";
import { mkdtemp, readFile, readlink, rm, symlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { moveToTrash } from "../../src/vault/trash";
import { allFiles } from "../helpers/vault-files";

let root: string;
beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "rg-trash-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(root, { recursive: true, force: true });
});

const NOW = new Date(Date.UTC(2026, 10, 28, 9, 30, 0));
const DATED = ".trash/20261128-093000/";
const theirs = Buffer.from("theirs: \uFEFF\r\nbytes\n");

/** A note at `path` (vault-relative) holding `content`; its bytes, as the delete decided on them. */
async function note(path: string, content: string): Promise<Buffer> {
	await fs.promises.mkdir(join(root, path, ".."), { recursive: true });
	await writeFile(join(root, path), content);
	return Buffer.from(content);
}

/** The check the move runs in its last synchronous step, used to act as another program would at that moment. */
function takeFirstChoice(target: string): () => boolean {
	let first = true;
	return () => {
		if (first) {
			first = false;
			fs.mkdirSync(join(root, target, ".."), { recursive: true });
			fs.writeFileSync(join(root, target), theirs);
		}
		return true;
	};
}

function noHardLinks(): void {
	vi.spyOn(fs, "linkSync").mockImplementation(() => {
		throw Object.assign(new Error("EXDEV: cross-device link not permitted, link"), { code: "EXDEV" });
	});
}

describe("the headless trash", () => {
	it("never replaces a file another program puts at the chosen trash name just before the move: the note takes the next name", async () => {
		const bytes = await note("sub/n.md", "mine\n");
		const trashed = await moveToTrash(
			root,
			".trash",
			"sub/n.md",
			join(root, "sub/n.md"),
			bytes,
			NOW,
			takeFirstChoice(".trash/sub/n.md"),
		);
		expect(trashed?.trashedTo).toBe(`${DATED}sub/n.md`);
		await trashed?.durable;
		expect(await readFile(join(root, ".trash/sub/n.md"))).toEqual(theirs);
		expect(await readFile(join(root, DATED, "sub/n.md"), "utf8")).toBe("mine\n");
		expect((await allFiles(root)).sort()).toEqual([`${DATED}sub/n.md`, ".trash/sub/n.md"]);
	});

	it("on a disk without hard links too, never replaces what another program puts at the chosen name", async () => {
		noHardLinks();
		const bytes = await note("n.md", "\uFEFFcrlf\r\nno final newline");
		const trashed = await moveToTrash(
			root,
			".trash",
			"n.md",
			join(root, "n.md"),
			bytes,
			NOW,
			takeFirstChoice(".trash/n.md"),
		);
		expect(trashed?.trashedTo).toBe(`${DATED}n.md`);
		await trashed?.durable;
		expect(await readFile(join(root, ".trash/n.md"))).toEqual(theirs);
		expect(await readFile(join(root, DATED, "n.md"))).toEqual(bytes);
		expect((await allFiles(root)).sort()).toEqual([`${DATED}n.md`, ".trash/n.md"]);
	});

	it("without hard links, takes its copy back when the note changed while it was made, and moves nothing", async () => {
		noHardLinks();
		const bytes = await note("n.md", "mine\n");
		// The first check (before the copy) passes, the one in the step of the unlink does not.
		let checks = 0;
		const trashed = await moveToTrash(root, ".trash", "n.md", join(root, "n.md"), bytes, NOW, () => ++checks === 1);
		expect(trashed).toBeNull();
		expect(await allFiles(root)).toEqual(["n.md"]);
	});

	it("moves nothing when the note changed since the decision", async () => {
		const bytes = await note("n.md", "mine\n");
		expect(await moveToTrash(root, ".trash", "n.md", join(root, "n.md"), bytes, NOW, () => false)).toBeNull();
		expect(await allFiles(root)).toEqual(["n.md"]);
	});

	it("trashes a symbolic link as the link, even where link() would follow it (macOS), and never replaces a name taken meanwhile", async () => {
		await note("real.md", "real\n");
		await symlink("real.md", join(root, "link.md"));
		// As on macOS, where link() may name what the link points to rather than the link.
		const link = fs.linkSync.bind(fs);
		vi.spyOn(fs, "linkSync").mockImplementation((source, target) => link(fs.realpathSync(source), target));
		const trashed = await moveToTrash(
			root,
			".trash",
			"link.md",
			join(root, "link.md"),
			Buffer.from("real\n"),
			NOW,
			takeFirstChoice(".trash/link.md"),
		);
		expect(trashed?.trashedTo).toBe(`${DATED}link.md`);
		await trashed?.durable;
		expect(fs.lstatSync(join(root, DATED, "link.md")).isSymbolicLink()).toBe(true);
		expect(await readlink(join(root, DATED, "link.md"))).toBe("real.md");
		expect(await readFile(join(root, ".trash/link.md"))).toEqual(theirs);
		expect(await readFile(join(root, "real.md"), "utf8")).toBe("real\n");
		expect(fs.existsSync(join(root, "link.md"))).toBe(false);
		expect(fs.lstatSync(join(root, "real.md")).nlink).toBe(1);
	});
});
