/**
 * `npm run install-plugin -- <vault> [--config-dir <name>]` (scripts/install-plugin.mjs), run into temp vaults: it
 * builds the plugin alone, quietly, and copies the three files Obsidian loads; when it cannot, it says what to do next
 * (never advice that the command as given already followed), before building anything.
 */
import { spawnSync } from "child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROOT } from "./project-copy";

const PLUGIN_FILES = ["main.js", "manifest.json", "styles.css"];
const SCRIPT = join(ROOT, "scripts/install-plugin.mjs");
let vault: string;

beforeEach(() => {
	vault = mkdtempSync(join(tmpdir(), "rg-install-vault-"));
});
afterEach(() => rmSync(vault, { recursive: true, force: true }));

/** Runs the script as package.json's install-plugin does, from another folder (npm runs it from the project). */
function install(...args: string[]): { status: number | null; stdout: string; stderr: string } {
	const result = spawnSync(process.execPath, [SCRIPT, ...args], {
		cwd: vault,
		encoding: "utf8",
		env: { PATH: process.env.PATH },
	});
	return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A config folder as Obsidian leaves it after opening the vault once. */
function configFolder(name: string): void {
	mkdirSync(join(vault, name));
	writeFileSync(join(vault, name, "app.json"), "{}");
}

const mtime = (file: string) => (existsSync(join(ROOT, file)) ? statSync(join(ROOT, file)).mtimeMs : null);

describe("npm run install-plugin", () => {
	it("is the script alone: it builds what it installs itself", () => {
		const scripts = (
			JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
		).scripts;
		expect(scripts["install-plugin"]).toBe("node scripts/install-plugin.mjs");
	});

	it("builds only the plugin, saying nothing but where it installed it, and copies main.js, manifest.json and styles.css", () => {
		configFolder(".obsidian");
		// The build goes to a temp folder: the checkout's own build (the benchmark bundles included) is left alone.
		const before = ["main.js", "dist/bench.js", "dist/cli.js"].map(mtime);
		const result = install(vault);
		const target = join(vault, ".obsidian/plugins/revision-guard");
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe(
			`Installed Revision Guard into ${target}. Enable it in Obsidian under Settings → Community plugins.\n`,
		);
		expect(result.status).toBe(0);
		for (const file of ["manifest.json", "styles.css"])
			expect(readFileSync(join(target, file), "utf8"), file).toBe(readFileSync(join(ROOT, file), "utf8"));
		const main = readFileSync(join(target, "main.js"), "utf8");
		expect(main.length).toBeGreaterThan(100_000);
		expect(main.includes('require("obsidian")'), "main.js loads obsidian as a plugin does").toBe(true);
		expect(["main.js", "dist/bench.js", "dist/cli.js"].map(mtime)).toEqual(before);
	});

	it("installs into the config folder --config-dir names, given before or after the vault", () => {
		configFolder(".my-config");
		const result = install("--config-dir", ".my-config", vault);
		expect(result.stderr).toBe("");
		expect(result.status).toBe(0);
		for (const file of PLUGIN_FILES)
			expect(existsSync(join(vault, ".my-config/plugins/revision-guard", file)), file).toBe(true);
		expect(existsSync(join(vault, ".obsidian"))).toBe(false);
	});
});

describe("when it cannot install", () => {
	/** Runs the script expecting a refusal: nothing is installed, and the advice is on stderr. */
	function refused(args: string[], status = 1): string {
		const result = install(...args);
		expect(result.stdout).toBe("");
		expect(result.status).toBe(status);
		for (const name of [".obsidian", ".my-config", ".other"])
			expect(existsSync(join(vault, name, "plugins")), name).toBe(false);
		return result.stderr;
	}

	it("a vault never opened in Obsidian: open it once, then run the same command again", () => {
		const advice = refused([vault]);
		expect(advice).toContain(`${vault} has no .obsidian folder`);
		expect(advice).toContain("Open the folder as a vault in Obsidian once");
		expect(advice).toContain(`npm run install-plugin -- ${vault}`);
		// With no other config folder in it, --config-dir would not help.
		expect(advice).not.toContain("--config-dir");
	});

	it("a vault whose config folder has another name: run again with --config-dir and that name", () => {
		configFolder(".my-config");
		const advice = refused([vault]);
		expect(advice).toContain(`${vault} has no .obsidian folder`);
		expect(advice).toContain(`npm run install-plugin -- ${vault} --config-dir .my-config`);
	});

	it("a --config-dir the vault does not have: names the config folders it has, never the one given again", () => {
		configFolder(".obsidian");
		const advice = refused([vault, "--config-dir", ".my-config"]);
		expect(advice).toContain(`${vault} has no .my-config folder`);
		expect(advice).toContain(`npm run install-plugin -- ${vault} --config-dir .obsidian`);
		expect(advice).not.toContain("--config-dir .my-config");
		expect(advice).not.toMatch(/pass --config-dir\b/);
	});

	it("a --config-dir in a vault with no config folder at all: open it in Obsidian once, and check the name", () => {
		const advice = refused([vault, "--config-dir=.my-config"]);
		expect(advice).toContain(`${vault} has no .my-config folder`);
		expect(advice).toContain("Open the folder as a vault in Obsidian once");
		expect(advice).toContain("Override config folder");
		expect(advice).not.toMatch(/pass --config-dir\b/);
	});

	it("a vault path with a space or a quote: the command it suggests can be pasted as it is", () => {
		const spaced = join(vault, "My Vault's notes");
		mkdirSync(spaced);
		const advice = refused([spaced]);
		expect(advice).toContain(`npm run install-plugin -- '${join(vault, "My Vault'\\''s notes")}'`);
		const pasted = spawnSync("sh", ["-c", `printf %s ${advice.split("npm run install-plugin -- ")[1]!.trim()}`], {
			encoding: "utf8",
		});
		expect(pasted.stdout).toBe(spaced);
	});

	it("a --config-dir given as a path: asks for the folder's name", () => {
		configFolder(".obsidian");
		expect(refused([vault, "--config-dir", join(vault, ".obsidian")], 2)).toContain(
			"--config-dir takes the config folder's name (such as .obsidian), not a path",
		);
	});

	it("no such vault folder: says so", () => {
		const missing = join(vault, "Notse");
		expect(refused([missing])).toContain(
			`No folder at ${missing}: give the path of your vault, the folder that holds your notes.`,
		);
	});

	it.each([[[]], [["--config-dir"]], [["--config-dir", "--vault"]], [["--force", "x"]], [["a", "b"]]])(
		"%j: prints the usage",
		(args) => {
			expect(refused(args, 2)).toContain(
				"Usage: npm run install-plugin -- <vault folder> [--config-dir <config folder name>]",
			);
		},
	);
});
