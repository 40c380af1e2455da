// Copies the built plugin into a vault: npm run install-plugin -- <vault> [--config-dir .obsidian]
// The config folder is configurable in Obsidian; pass --config-dir when yours is not the default.
import { copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const vault = args.find((arg) => !arg.startsWith("--"));
const configIndex = args.indexOf("--config-dir");
const configDir = configIndex === -1 ? ".obsidian" : args[configIndex + 1];
if (!vault || !configDir) {
	console.error("Usage: npm run install-plugin -- <vault folder> [--config-dir <config folder name>]");
	process.exit(2);
}
const vaultPath = resolve(vault);
if (!existsSync(vaultPath) || !statSync(vaultPath).isDirectory()) {
	console.error(`No vault folder at ${vaultPath}.`);
	process.exit(1);
}
if (!existsSync(join(vaultPath, configDir))) {
	console.error(`${vaultPath} has no ${configDir} folder. Open it in Obsidian once, or pass --config-dir.`);
	process.exit(1);
}
for (const file of ["main.js", "manifest.json", "styles.css"]) {
	if (!existsSync(file)) {
		console.error(`${file} is missing; run npm run build first.`);
		process.exit(1);
	}
}
const target = join(vaultPath, configDir, "plugins", "revision-guard");
mkdirSync(target, { recursive: true });
for (const file of ["main.js", "manifest.json", "styles.css"]) copyFileSync(file, join(target, file));
console.log(`Installed Revision Guard into ${target}. Enable it in Obsidian under Settings → Community plugins.`);
