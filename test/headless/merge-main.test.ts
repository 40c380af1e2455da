/**
 * The merge program (src/headless/merge-main.ts, built to dist/merge.js, package.json's bin revision-guard-merge)
 * starts like a small tool because it bundles the merge engine and nothing else: no server, no MCP SDK, no vault.
 * esbuild's own import graph of the entry says what the bundle holds.
 */
import { build } from "esbuild";
import { readFileSync } from "fs";
import { join } from "path";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../..");
const ENTRY = "src/headless/merge-main.ts";

/** What the merge program may load: the pure core, its own three files, the port constant and yaml (frontmatter). */
const ALLOWED = [
	/^src\/core\//,
	/^src\/headless\/(merge-main|merge-command|args)\.ts$/,
	/^src\/settings\.ts$/,
	/^node_modules\/yaml\//,
];

let inputs: string[];
beforeAll(async () => {
	// The same bundling as esbuild.config.mjs (bundle, node, CommonJS), kept in memory.
	const result = await build({
		absWorkingDir: ROOT,
		entryPoints: [ENTRY],
		bundle: true,
		platform: "node",
		format: "cjs",
		target: "es2022",
		treeShaking: true,
		write: false,
		metafile: true,
		logLevel: "silent",
		define: { __VERSION__: JSON.stringify("0.0.0") },
	});
	const outputs = Object.values(result.metafile.outputs);
	expect(outputs).toHaveLength(1);
	// Only the modules with bytes in the bundle: a type-only import leaves none. A package is named from its
	// node_modules/ on: esbuild follows symlinks, so where node_modules is a link (a worktree or a clone sharing another
	// checkout's install) its paths start with wherever the link points (../main/node_modules/yaml/...).
	inputs = Object.entries(outputs[0]!.inputs)
		.filter(([, input]) => input.bytesInOutput > 0)
		.map(([path]) => path.replace(/^(?:\.\.\/)+(?:[^/]+\/)*?(?=node_modules\/)/, ""))
		.sort();
});

describe("the merge program's bundle", () => {
	it("holds the merge engine (the graph is read at all)", () => {
		expect(inputs).toContain("src/core/merge/merge.ts");
		expect(inputs).toContain("src/headless/merge-command.ts");
		expect(inputs.some((path) => path.startsWith("node_modules/yaml/"))).toBe(true);
	});

	it("holds nothing but the core, its own files and yaml", () => {
		expect(inputs.filter((path) => !ALLOWED.some((allowed) => allowed.test(path)))).toEqual([]);
	});

	it("loads no server, MCP, service, vault or host code, and none of their packages", () => {
		const forbidden =
			/^(src\/(http|mcp|service|vault|host|cli|ui)\/|src\/headless\/cli\.ts$|node_modules\/(@modelcontextprotocol|zod|chokidar|diff-match-patch)\/)/;
		expect(inputs.filter((path) => forbidden.test(path))).toEqual([]);
	});
});

describe("the merge program's install", () => {
	const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
		bin?: Record<string, string>;
		scripts: Record<string, string>;
	};

	it("is package.json's bin revision-guard-merge (merge-command.test.ts runs the built file)", () => {
		expect(pkg.bin).toEqual({ "revision-guard-merge": "dist/merge.js" });
	});

	it("is built by a plain npm install in a clone (prepare runs the production build, not a watch)", () => {
		expect(pkg.scripts.prepare).toBe("node esbuild.config.mjs production --quiet");
	});
});
