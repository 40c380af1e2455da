/**
 * `npm version x.y.z` (package.json's "version" script, scripts/version-bump.mjs): bumps manifest.json, maps the
 * version to its minAppVersion in versions.json, and tags x.y.z without a "v". Runs on temp copies only.
 */
import { spawnSync } from "child_process";
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { copyProject, type ProjectCopy } from "./project-copy";

const SCRIPT = "scripts/version-bump.mjs";
let project: ProjectCopy;
let manifest: Record<string, unknown>;
let versions: Record<string, string>;

beforeEach(() => {
	project = copyProject(["manifest.json", "versions.json", "package.json", ".npmrc", SCRIPT]);
	// A fixed starting point, whatever the project's version is today.
	manifest = {
		...(project.readJson("manifest.json") as Record<string, unknown>),
		version: "0.1.0",
		minAppVersion: "1.6.6",
	};
	versions = { "0.1.0": "1.6.6" };
	project.writeJson("manifest.json", manifest);
	project.writeJson("versions.json", versions);
});
afterEach(() => project.remove());

describe("version-bump", () => {
	it("sets manifest.json's version and maps it to minAppVersion in versions.json, keeping the older entries", () => {
		const result = project.node(SCRIPT, [], { npm_package_version: "0.2.0" });
		expect(result.status).toBe(0);
		expect(project.readJson("manifest.json")).toEqual({ ...manifest, version: "0.2.0" });
		expect(project.readJson("versions.json")).toEqual({ "0.1.0": "1.6.6", "0.2.0": "1.6.6" });
		// Same key order and formatting as before, so the version commit shows only the version.
		expect(project.read("manifest.json")).toBe(JSON.stringify({ ...manifest, version: "0.2.0" }, null, "\t") + "\n");
	});

	it("records a raised minAppVersion for the new version only, so older Obsidian still finds the older release", () => {
		project.writeJson("manifest.json", { ...manifest, minAppVersion: "1.12.2" });
		expect(project.node(SCRIPT, [], { npm_package_version: "1.0.0" }).status).toBe(0);
		expect(project.readJson("versions.json")).toEqual({ "0.1.0": "1.6.6", "1.0.0": "1.12.2" });
	});

	it.each([["1.0.0-beta.1"], ["v1.0.0"], ["1.0"]])(
		"refuses %s, which Obsidian cannot look up, and changes nothing",
		(version) => {
			const before = [project.read("manifest.json"), project.read("versions.json")];
			const result = project.node(SCRIPT, [], { npm_package_version: version });
			expect(result.status).toBe(2);
			expect(result.stderr).toContain("x.y.z");
			expect([project.read("manifest.json"), project.read("versions.json")]).toEqual(before);
		},
	);

	it("refuses to run outside npm version, and changes nothing", () => {
		const before = project.read("manifest.json");
		const result = project.node(SCRIPT);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain("npm version");
		expect(project.read("manifest.json")).toBe(before);
	});

	it("npm version x.y.z commits package.json, manifest.json and versions.json and tags x.y.z with no v", () => {
		// npm's cache and logs go to a temp home, away from personal git or npm settings (signing, another tag prefix);
		// offline and without the update check, so npm never reaches for the network.
		const home = mkdtempSync(join(tmpdir(), "rg-home-"));
		onTestFinished(() => rmSync(home, { recursive: true, force: true }));
		const env = {
			PATH: process.env.PATH,
			HOME: home,
			npm_config_offline: "true",
			npm_config_update_notifier: "false",
			GIT_CONFIG_GLOBAL: "/dev/null",
			GIT_CONFIG_NOSYSTEM: "1",
			GIT_AUTHOR_NAME: "Test",
			GIT_AUTHOR_EMAIL: "test@example.invalid",
			GIT_COMMITTER_NAME: "Test",
			GIT_COMMITTER_EMAIL: "test@example.invalid",
		};
		const run = (command: string, ...args: string[]) => {
			const result = spawnSync(command, args, { cwd: project.dir, encoding: "utf8", env });
			expect(result.status, `${command} ${args.join(" ")}: ${result.stderr}`).toBe(0);
			return result.stdout.trim();
		};
		project.writeJson("package.json", { ...(project.readJson("package.json") as object), version: "0.1.0" });
		run("git", "init", "-q");
		run("git", "add", ".");
		run("git", "commit", "-q", "-m", "start");

		run("npm", "version", "0.2.0", "--no-audit", "--no-fund");

		expect(run("git", "tag", "--list")).toBe("0.2.0");
		// Annotated, so `git push --follow-tags` pushes it with the commit.
		expect(run("git", "cat-file", "-t", "0.2.0")).toBe("tag");
		expect(run("git", "log", "-1", "--name-only", "--format=%s", "0.2.0").split("\n").filter(Boolean)).toEqual([
			"0.2.0",
			"manifest.json",
			"package.json",
			"versions.json",
		]);
		expect(run("git", "status", "--porcelain")).toBe("");
		expect(project.readJson("manifest.json")).toMatchObject({ version: "0.2.0" });
		expect(project.readJson("versions.json")).toEqual({ "0.1.0": "1.6.6", "0.2.0": "1.6.6" });
	});
});
