/** scripts/check-release.mjs: the release workflow's gate between a pushed tag and a published release. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyProject, type ProjectCopy } from "./project-copy";

const SCRIPT = "scripts/check-release.mjs";
let project: ProjectCopy;
let version: string;

beforeEach(() => {
	project = copyProject(["manifest.json", "package.json", "versions.json", SCRIPT]);
	version = (project.readJson("manifest.json") as { version: string }).version;
});
afterEach(() => project.remove());

describe("check-release", () => {
	it("passes the project's own files for the tag equal to their version", () => {
		const result = project.node(SCRIPT, [version]);
		expect(result.stderr).toBe("");
		expect(result.status).toBe(0);
	});

	it('refuses a "v" tag, since Obsidian looks the release up by the bare version', () => {
		const result = project.node(SCRIPT, [`v${version}`]);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain('no "v"');
		expect(result.stderr).toContain("npm version");
	});

	it("refuses a tag that is not manifest.json's version", () => {
		const result = project.node(SCRIPT, ["99.0.0"]);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain(`manifest.json says ${version}, the tag says 99.0.0`);
	});

	it("refuses when package.json was not bumped with the manifest", () => {
		project.writeJson("package.json", { ...(project.readJson("package.json") as object), version: "0.0.1" });
		const result = project.node(SCRIPT, [version]);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain("package.json says 0.0.1");
	});

	it("refuses when versions.json does not map the version to the manifest's minAppVersion", () => {
		project.writeJson("versions.json", {});
		const result = project.node(SCRIPT, [version]);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain(`versions.json maps ${version} to nothing`);
	});

	it("refuses a missing tag", () => {
		expect(project.node(SCRIPT, []).status).toBe(1);
	});
});
