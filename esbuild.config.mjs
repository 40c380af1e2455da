// Builds the plugin (main.js), the headless host (dist/cli.js), the merge program (dist/merge.js) and the benchmark
// (dist/bench.js).
// `node esbuild.config.mjs production` builds once; `watch` rebuilds on change. `--out-dir DIR` writes DIR/main.js
// and DIR/dist/ instead (the reproducible-build test compares two builds without touching the real main.js).
// `--plugin-only` builds main.js alone (npm run install-plugin installs only that). `--metafile FILE` writes esbuild's
// account of what went into main.js (scripts/bundle-breakdown.mjs sums it by package and by folder).
// The production build is reproducible: the same sources and lock file give byte-identical files, wherever the
// checkout is and whichever Node version runs it (the community directory rebuilds main.js to compare).
import esbuild from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const mode = process.argv[2] ?? "production";
const quiet = process.argv.includes("--quiet");
const pluginOnly = process.argv.includes("--plugin-only");
const outDirIndex = process.argv.indexOf("--out-dir");
const outDir = outDirIndex === -1 ? "." : process.argv[outDirIndex + 1];
const metafileIndex = process.argv.indexOf("--metafile");
const metafilePath = metafileIndex === -1 ? null : process.argv[metafileIndex + 1];
if (!outDir) {
	console.error("--out-dir needs a folder: node esbuild.config.mjs production --out-dir <folder>");
	process.exit(2);
}
const manifest = JSON.parse(readFileSync("manifest.json", "utf8"));
const production = mode === "production";

const shared = {
	bundle: true,
	format: "cjs",
	target: "es2022",
	// Leaves Node's built-ins to require() by esbuild's own list: listing `builtinModules` here would make the
	// bundle depend on the Node version that builds it.
	platform: "node",
	logLevel: quiet ? "warning" : "info",
	sourcemap: production ? false : "inline",
	treeShaking: true,
	define: { __VERSION__: JSON.stringify(manifest.version) },
};

const builds = [
	{
		...shared,
		entryPoints: ["src/main.ts"],
		outfile: join(outDir, "main.js"),
		// Obsidian provides these at run time; Node built-ins come from Electron.
		external: ["obsidian", "electron", "@codemirror/*", "@lezer/*"],
		// Obsidian loads main.js as it is; minifying keeps the bundled MCP SDK and yaml small. Sources are in src/.
		minify: production,
	},
	{
		...shared,
		entryPoints: ["src/headless/cli.ts"],
		outfile: join(outDir, "dist/cli.js"),
		banner: { js: "#!/usr/bin/env node" },
	},
	// The merge program (package.json's bin revision-guard-merge): the merge engine only, so it starts like a small tool.
	{
		...shared,
		entryPoints: ["src/headless/merge-main.ts"],
		outfile: join(outDir, "dist/merge.js"),
		banner: { js: "#!/usr/bin/env node" },
	},
	{
		...shared,
		entryPoints: ["bench/bench.ts"],
		outfile: join(outDir, "dist/bench.js"),
		external: ["playwright-core", "esbuild"],
	},
	// Each benchmark server runs from this file, which loads the server under test and nothing else.
	{ ...shared, entryPoints: ["bench/server-main.ts"], outfile: join(outDir, "dist/bench-server.js") },
	// Each measured start of the headless host runs from this file, in a process of its own.
	{ ...shared, entryPoints: ["bench/start-main.ts"], outfile: join(outDir, "dist/bench-start.js") },
];

const selected = pluginOnly ? builds.filter((options) => options.entryPoints[0] === "src/main.ts") : builds;
if (mode === "watch") {
	for (const options of selected) await (await esbuild.context(options)).watch();
} else {
	const results = await Promise.all(
		selected.map((options) => esbuild.build({ ...options, metafile: metafilePath !== null })),
	);
	if (metafilePath) writeFileSync(metafilePath, JSON.stringify(results[0].metafile));
}
