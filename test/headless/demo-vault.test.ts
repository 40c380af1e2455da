/** The demo vault `npm start` creates when no folder is given. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureDemoVault } from "../../src/headless/demo-vault";
import { allFiles } from "../helpers/vault-files";

const DEMO_NOTES = ["Daily/2026-11-21.md", "Projects/Plan.md", "Welcome.md"];

let parent: string;
beforeEach(async () => {
	parent = await mkdtemp(join(tmpdir(), "rg-demo-"));
});
afterEach(async () => {
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
