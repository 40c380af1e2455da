/** The demo vault `npm start` creates when no folder is given. */
import fs from "fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ensureDemoVault } from "../../src/headless/demo-vault";
import { recordFolderFsyncs } from "../helpers/failing-disk";
import { allFiles } from "../helpers/vault-files";

const DEMO_NOTES = ["Daily/2026-11-21.md", "Projects/Plan.md", "Welcome.md"];

let parent: string;
beforeEach(async () => {
	parent = await mkdtemp(join(tmpdir(), "rg-demo-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(parent, { recursive: true, force: true });
});

async function expectDemoNotes(folder: string): Promise<void> {
	const welcome = await readFile(join(folder, "Welcome.md"), "utf8");
	expect(welcome).toMatch(/^---\ntags: \[demo\]\n---\n# Welcome\n/);
	expect(await readFile(join(folder, "Projects/Plan.md"), "utf8")).toMatch(/^# Plan\n/);
	expect(await readFile(join(folder, "Daily/2026-11-21.md"), "utf8")).toMatch(/^# 2026-11-21\n/);
}

describe("ensureDemoVault", () => {
	it("creates a missing folder (and its parents) with the demo notes", async () => {
		const folder = join(parent, "nested", "demo-vault");
		expect(await ensureDemoVault(folder)).toBe(true);
		expect(await allFiles(folder)).toEqual(DEMO_NOTES);
		await expectDemoNotes(folder);
	});

	it("writes durably: every folder entry on the way to each demo note is fsynced before it returns", async () => {
		const real = await realpath(parent);
		const disk = recordFolderFsyncs();
		expect(await ensureDemoVault(join(parent, "nested", "demo-vault"))).toBe(true);
		const vault = join(real, "nested", "demo-vault");
		expect(disk.folders()).toEqual(
			expect.arrayContaining([real, join(real, "nested"), vault, join(vault, "Projects"), join(vault, "Daily")]),
		);
	});

	it("never replaces a file another program puts at a demo note's name while the vault is being made", async () => {
		const mkdirNow = fs.promises.mkdir.bind(fs.promises);
		vi.spyOn(fs.promises, "mkdir").mockImplementation(async (...args: Parameters<typeof fs.promises.mkdir>) => {
			const made = await mkdirNow(...args);
			if (String(args[0]).endsWith("Projects")) fs.writeFileSync(join(parent, "Projects/Plan.md"), "theirs\n");
			return made;
		});
		expect(await ensureDemoVault(parent)).toBe(true);
		expect(await readFile(join(parent, "Projects/Plan.md"), "utf8")).toBe("theirs\n");
		expect(await allFiles(parent)).toEqual(DEMO_NOTES);
	});

	it("fills an empty folder", async () => {
		expect(await ensureDemoVault(parent)).toBe(true);
		expect(await allFiles(parent)).toEqual(DEMO_NOTES);
		await expectDemoNotes(parent);
	});

	it("leaves a folder with a note untouched", async () => {
		await writeFile(join(parent, "Mine.md"), "# Mine\n");
		expect(await ensureDemoVault(parent)).toBe(false);
		expect(await allFiles(parent)).toEqual(["Mine.md"]);
		expect(await readFile(join(parent, "Mine.md"), "utf8")).toBe("# Mine\n");
	});

	it("leaves a folder with only a visible subfolder untouched", async () => {
		await mkdir(join(parent, "Projects"));
		expect(await ensureDemoVault(parent)).toBe(false);
		expect(await allFiles(parent)).toEqual([]);
	});

	it("never overwrites an existing demo note on a second run", async () => {
		await ensureDemoVault(parent);
		await writeFile(join(parent, "Welcome.md"), "edited\n");
		expect(await ensureDemoVault(parent)).toBe(false);
		expect(await readFile(join(parent, "Welcome.md"), "utf8")).toBe("edited\n");
	});

	it("counts a folder with only hidden entries as empty and keeps them", async () => {
		await mkdir(join(parent, ".obsidian"));
		await writeFile(join(parent, ".obsidian", "app.json"), "{}");
		await mkdir(join(parent, ".revision-guard"));
		await writeFile(join(parent, ".DS_Store"), "x");
		expect(await ensureDemoVault(parent)).toBe(true);
		expect(await allFiles(parent)).toEqual([".DS_Store", ".obsidian/app.json", ...DEMO_NOTES]);
		expect(await readFile(join(parent, ".obsidian", "app.json"), "utf8")).toBe("{}");
		await expectDemoNotes(parent);
	});
});
