// What main.js is made of: `node esbuild.config.mjs production --plugin-only --metafile meta.json`, then
// `node scripts/bundle-breakdown.mjs meta.json` prints its bytes by package and by src/ folder (minified sizes).
import { readFileSync } from "node:fs";

const metafile = JSON.parse(readFileSync(process.argv[2] ?? "meta.json", "utf8"));
const [[outputName, output]] = Object.entries(metafile.outputs).filter(([name]) => name.endsWith("main.js"));
const byPackage = new Map();
const byFolder = new Map();
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
	const nested = /node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/node_modules\/((?:@[^/]+\/)?[^/]+))?/.exec(file);
	if (nested) add(byPackage, nested[2] ? `${nested[1]} > ${nested[2]}` : nested[1], bytesInOutput);
	else add(byFolder, file.split("/").slice(0, -1).join("/") || file, bytesInOutput);
}
const table = (map) =>
	[...map]
		.sort((a, b) => b[1] - a[1])
		.map(([name, bytes]) => `${(bytes / 1024).toFixed(1).padStart(8)} KB  ${name}`)
		.join("\n");
const total = (map) => [...map.values()].reduce((sum, bytes) => sum + bytes, 0) / 1024;
console.log(`${outputName}: ${(output.bytes / 1024).toFixed(1)} KB`);
console.log(`\nby package (${total(byPackage).toFixed(1)} KB)\n${table(byPackage)}`);
console.log(`\nby folder of ours (${total(byFolder).toFixed(1)} KB)\n${table(byFolder)}`);
