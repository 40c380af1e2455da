/**
 * What goes into main.js, from esbuild's own account of the production build (issue 28's footprint goal). Two
 * checks that fail the moment someone bundles more than they meant to: only the two packages the plugin needs at
 * run time are in it, and it stays within a size budget. The budget is a ceiling against regressions, not the
 * goal: `npm run bench` reports the size against issue 28's target.
 */
import { execFile } from "child_process";
import { mkdtempSync, readFileSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { promisify } from "util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./project-copy";

const run = promisify(execFile);

/**
 * The size main.js may reach before this test fails. Raise it only on purpose, with the reason in the commit (a
 * feature worth its bytes); docs/benchmarks.md ("Bundle size") says what main.js is made of.
 */
const BUDGET_KB = 800;

/** The npm packages main.js may carry: the frontmatter-preserving YAML model and the word diff. */
const BUNDLED_PACKAGES = ["diff-match-patch", "yaml"];

interface BuildAccount {
	bytes: number;
	inputs: string[];
}

let folder: string;
let account: BuildAccount;

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), "rg-bundle-"));
	const metafile = join(folder, "meta.json");
	await run(
		process.execPath,
		["esbuild.config.mjs", "production", "--quiet", "--plugin-only", "--out-dir", folder, "--metafile", metafile],
		{ cwd: ROOT },
	);
	const { outputs } = JSON.parse(readFileSync(metafile, "utf8")) as {
		outputs: Record<string, { bytes: number; inputs: Record<string, unknown> }>;
	};
	const [main] = Object.entries(outputs).filter(([name]) => name.endsWith("main.js"));
	account = { bytes: main![1].bytes, inputs: Object.keys(main![1].inputs) };
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function packageOf(input: string): string | null {
	const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
	return match ? match[1]! : null;
}

describe("main.js", () => {
	it("bundles only the packages the plugin needs at run time (the MCP SDK and zod are test-only)", () => {
		const packages = new Set(account.inputs.map(packageOf).filter((name) => name !== null));
		expect([...packages].sort()).toEqual(BUNDLED_PACKAGES);
	});

	it("bundles no Node-only module of ours (the headless host, its CLI and the bench stay out)", () => {
		expect(account.inputs.filter((input) => /^(src\/headless|bench)\//.test(input))).toEqual([]);
	});

	it(`stays within its ${BUDGET_KB} KB budget`, () => {
		expect(account.bytes / 1024).toBeLessThanOrEqual(BUDGET_KB);
	});
});
