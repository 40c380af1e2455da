/**
 * What the community directory checks before it lists the plugin, and on every release after: manifest.json
 * (eslint-plugin-obsidianmd's validate-manifest, the obsidian-releases submission checks and the submission
 * requirements), the licence (validate-license, and GitHub recognising it as MIT), and the version files agreeing.
 */
import { Linter } from "eslint";
import obsidianmd from "eslint-plugin-obsidianmd";
import { PlainTextParser } from "eslint-plugin-obsidianmd/dist/lib/plainTextParser.js";
import { readdirSync, readFileSync } from "fs";
import { join } from "path";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "./project-copy";

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const manifest = JSON.parse(read("manifest.json")) as Record<string, unknown>;
const VERSION = /^\d+\.\d+\.\d+$/;

/** The MIT licence as choosealicense.com and GitHub's licence detection know it, after the copyright line. */
const MIT_BODY = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation the
rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit
persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the
Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE
WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

const words = (text: string) => text.split(/\s+/).filter(Boolean).join(" ");

/** Runs one obsidianmd rule on a project file the way the directory's scanner lints it. */
function lint(file: string, rule: string, parser: Linter.Parser): Linter.LintMessage[] {
	const linter = new Linter({ configType: "flat", cwd: ROOT });
	const config: Linter.Config[] = [
		{ files: [file], plugins: { obsidianmd }, languageOptions: { parser }, rules: { [`obsidianmd/${rule}`]: "error" } },
	];
	return linter.verify(read(file), config, { filename: join(ROOT, file) });
}

describe("manifest.json", () => {
	it("passes eslint-plugin-obsidianmd's validate-manifest", () => {
		expect(lint("manifest.json", "validate-manifest", tseslint.parser as Linter.Parser)).toEqual([]);
	});

	it("has only the fields Obsidian knows, with versions of numbers and dots", () => {
		const known = [
			"id",
			"name",
			"version",
			"minAppVersion",
			"description",
			"author",
			"authorUrl",
			"fundingUrl",
			"isDesktopOnly",
		];
		for (const key of Object.keys(manifest)) expect(known, key).toContain(key);
		expect(manifest.version).toMatch(VERSION);
		expect(manifest.minAppVersion).toMatch(VERSION);
	});

	it("has an id and a name the directory accepts", () => {
		const id = manifest.id as string;
		const name = manifest.name as string;
		expect(id).toMatch(/^[a-z0-9-_]+$/);
		for (const text of [id, name.toLowerCase()]) {
			expect(text).not.toContain("obsidian");
			expect(text.endsWith("plugin")).toBe(false);
		}
	});

	it("has a short description that says what it does, as the submission requirements ask", () => {
		const description = manifest.description as string;
		expect(description.length).toBeLessThanOrEqual(250);
		expect(description).toMatch(/^[A-Z]/);
		expect(description.endsWith(".")).toBe(true);
		expect(description).toMatch(/^[A-Za-z0-9\s.,!?'"-]+$/); // no emoji or special characters
		expect(description.toLowerCase()).not.toContain("obsidian");
		expect(description.toLowerCase()).not.toContain("this plugin");
		expect(description.toLowerCase()).not.toContain("this is a");
	});

	it("names an author and an author URL that is neither Obsidian's site nor the plugin's repository", () => {
		expect(manifest.author).toEqual(expect.any(String));
		expect(manifest.author).not.toMatch(/@/);
		const url = new URL(manifest.authorUrl as string);
		expect(url.protocol).toBe("https:");
		expect(url.hostname).not.toMatch(/(^|\.)obsidian\.md$/);
		if (url.hostname === "github.com") expect(url.pathname.split("/").filter(Boolean)).toHaveLength(1);
	});

	it("is desktop-only, because the plugin serves its API with Node's http", () => {
		const usesNodeHttp = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
			.filter((file) => file.endsWith(".ts"))
			.some((file) => /from "(node:)?http"/.test(read(join("src", file))));
		expect(usesNodeHttp).toBe(true);
		expect(manifest.isDesktopOnly).toBe(true);
	});

	it("agrees with package.json and versions.json on the version", () => {
		const pkg = JSON.parse(read("package.json")) as { version: string };
		const versions = JSON.parse(read("versions.json")) as Record<string, string>;
		expect(pkg.version).toBe(manifest.version);
		expect(versions[manifest.version as string]).toBe(manifest.minAppVersion);
		for (const [version, app] of Object.entries(versions)) {
			expect(version).toMatch(VERSION);
			expect(app).toMatch(VERSION);
		}
	});
});

describe("LICENSE", () => {
	it("passes eslint-plugin-obsidianmd's validate-license", () => {
		expect(lint("LICENSE", "validate-license", PlainTextParser as Linter.Parser)).toEqual([]);
	});

	it("is the MIT licence, word for word, with this year or earlier and a real holder", () => {
		const text = read("LICENSE");
		expect(text.split("\n")[0]).toBe("MIT License");
		const copyright = /^Copyright \(c\) (\d{4}) (.+)$/m.exec(text);
		expect(copyright, "a line: Copyright (c) <year> <holder>").not.toBeNull();
		const [line, year, holder] = copyright!;
		expect(Number(year)).toBeGreaterThanOrEqual(2024);
		expect(Number(year)).toBeLessThanOrEqual(new Date().getFullYear());
		expect(holder).not.toMatch(/Dynalist|\[|\byour name\b/i);
		expect(words(text.slice(0, copyright!.index))).toBe("MIT License");
		expect(words(text.slice(copyright!.index + line.length))).toBe(words(MIT_BODY));
	});
});
