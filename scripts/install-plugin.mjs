// Builds the plugin and copies it into a vault: npm run install-plugin -- <vault> [--config-dir <name>]
// The config folder is configurable in Obsidian; pass --config-dir when yours is not the default.
// Everything that can be wrong with the command is checked before the build, so a mistake is answered at once, and
// each refusal says what to do next. The build is main.js alone, into a temp folder: quiet, and the checkout's own
// build (the benchmark bundles and their size warnings included) is left as it was.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const USAGE = "Usage: npm run install-plugin -- <vault folder> [--config-dir <config folder name>]";
const DEFAULT_CONFIG_DIR = ".obsidian";
/** Files Obsidian writes into its config folder when it first opens a vault: how a config folder is recognized. */
const CONFIG_FILES = ["app.json", "appearance.json", "core-plugins.json", "workspace.json"];

function fail(status, ...lines) {
	for (const line of lines) console.error(line);
	process.exit(status);
}

/** `<vault>` and `--config-dir NAME` (or `--config-dir=NAME`), in any order; null for anything else. */
function parseArgs(args) {
	let vault = null;
	let configDir = null;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i];
		if (arg === "--config-dir") {
			configDir = args[++i] ?? "";
			if (configDir === "" || configDir.startsWith("--")) return null;
		} else if (arg.startsWith("--config-dir=")) {
			configDir = arg.slice("--config-dir=".length);
			if (configDir === "") return null;
		} else if (arg.startsWith("-") || vault !== null) return null;
		else vault = arg;
	}
	return vault === null ? null : { vault, configDir };
}

/** `text` as one word for a POSIX shell, so a suggested command can be pasted as it is (vault paths hold spaces). */
function shellWord(text) {
	return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** The folders at the top of the vault that Obsidian has used as its config folder. */
function configFoldersIn(vaultPath) {
	return readdirSync(vaultPath, { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && entry.name.startsWith("."))
		.map((entry) => entry.name)
		.filter((name) => CONFIG_FILES.some((file) => existsSync(join(vaultPath, name, file))))
		.sort();
}

const parsed = parseArgs(process.argv.slice(2));
if (parsed === null) fail(2, USAGE);
const configDir = parsed.configDir ?? DEFAULT_CONFIG_DIR;
if (/[/\\]/.test(configDir)) {
	fail(
		2,
		`--config-dir takes the config folder's name (such as .obsidian), not a path: the folder is looked for inside the vault.`,
		USAGE,
	);
}
const vaultPath = resolve(parsed.vault);
if (!existsSync(vaultPath) || !statSync(vaultPath).isDirectory()) {
	fail(1, `No folder at ${vaultPath}: give the path of your vault, the folder that holds your notes.`);
}
if (!existsSync(join(vaultPath, configDir))) {
	const again = `npm run install-plugin -- ${shellWord(vaultPath)}`;
	const found = configFoldersIn(vaultPath);
	const given = parsed.configDir === null ? "" : " (the --config-dir you gave)";
	const lines = [`${vaultPath} has no ${configDir} folder${given}.`];
	if (found.length > 0) {
		lines.push(
			`Its config folder is ${found.join(" or ")}; run: ${found.map((name) => `${again} --config-dir ${name}`).join("  or  ")}`,
		);
	} else {
		lines.push(
			`Open the folder as a vault in Obsidian once (that makes its config folder), then run: ${again}${given === "" ? "" : ` --config-dir ${configDir}`}`,
		);
		if (given !== "") {
			lines.push(
				"Check the name too: it is the one under Settings → Files and links → Override config folder (.obsidian unless changed).",
			);
		}
	}
	fail(1, ...lines);
}

const build = mkdtempSync(join(tmpdir(), "revision-guard-build-"));
const built = spawnSync(
	process.execPath,
	["esbuild.config.mjs", "production", "--quiet", "--plugin-only", "--out-dir", build],
	{ cwd: ROOT, stdio: "inherit" },
);
if (built.status !== 0) {
	rmSync(build, { recursive: true, force: true });
	fail(1, "The build failed (esbuild's messages are above); nothing was installed.");
}
try {
	const target = join(vaultPath, configDir, "plugins", "revision-guard");
	mkdirSync(target, { recursive: true });
	copyFileSync(join(build, "main.js"), join(target, "main.js"));
	for (const file of ["manifest.json", "styles.css"]) copyFileSync(join(ROOT, file), join(target, file));
	// stdout rather than console.log, which eslint-plugin-obsidianmd flags wherever the directory's scanner looks.
	process.stdout.write(
		`Installed Revision Guard into ${target}. Enable it in Obsidian under Settings → Community plugins.\n`,
	);
} finally {
	rmSync(build, { recursive: true, force: true });
}
