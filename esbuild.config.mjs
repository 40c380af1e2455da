// Builds the plugin (main.js), the headless host (dist/cli.js) and the benchmark (dist/bench.js).
// `node esbuild.config.mjs production` builds once; `watch` rebuilds on change.
import esbuild from "esbuild";
import { builtinModules } from "node:module";
import { readFileSync } from "node:fs";

const mode = process.argv[2] ?? "production";
const quiet = process.argv.includes("--quiet");
const manifest = JSON.parse(readFileSync("manifest.json", "utf8"));
const production = mode === "production";

const shared = {
	bundle: true,
	format: "cjs",
	target: "es2022",
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
		outfile: "main.js",
		// Obsidian provides these at run time; Node built-ins come from Electron.
		external: ["obsidian", "electron", "@codemirror/*", "@lezer/*", ...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
		// Obsidian loads main.js as it is; minifying keeps the bundled MCP SDK and yaml small. Sources are in src/.
		minify: production,
		// ajv-formats and the MCP SDK each carry their own copy of the same ajv 8 (the root ajv is eslint's 6): one is enough.
		alias: { ajv: "./node_modules/@modelcontextprotocol/sdk/node_modules/ajv" },
	},
	{ ...shared, entryPoints: ["src/headless/cli.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } },
	{ ...shared, entryPoints: ["bench/bench.ts"], outfile: "dist/bench.js", external: ["playwright-core", "esbuild"] },
];

if (mode === "watch") {
	for (const options of builds) await (await esbuild.context(options)).watch();
} else {
	await Promise.all(builds.map((options) => esbuild.build(options)));
}
