/**
 * The community directory's scanner rebuilds main.js from the source (npm ci, npm run build) and compares it with
 * the released file byte for byte. So the production build must give the same bytes every time: no build date, no
 * absolute path, nothing from the machine or the clock. Builds into temp folders; the real main.js is untouched.
 */
import { execFile } from "child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join, relative } from "path";
import { promisify } from "util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./project-copy";

const run = promisify(execFile);
const folders: string[] = [];
afterAll(() => {
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** `npm run build`'s command, writing into a new temp folder; a different time zone and locale each time. */
async function build(env: NodeJS.ProcessEnv): Promise<string> {
	const out = mkdtempSync(join(tmpdir(), "rg-build-"));
	folders.push(out);
	await run(process.execPath, ["esbuild.config.mjs", "production", "--quiet", "--out-dir", out], {
		cwd: ROOT,
		env: { ...process.env, ...env },
	});
	return out;
}

function filesIn(folder: string): string[] {
	return readdirSync(folder, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(folder, join(entry.parentPath, entry.name)))
		.sort();
}

describe("the production build", () => {
	let first: string;
	let second: string;
	beforeAll(async () => {
		first = await build({ TZ: "UTC", LANG: "C" });
		second = await build({ TZ: "Pacific/Kiritimati", LANG: "de_DE.UTF-8" });
	});

	it("gives byte-identical files when run twice", () => {
		expect(filesIn(first)).toEqual([
			"dist/bench-server.js",
			"dist/bench-start.js",
			"dist/bench.js",
			"dist/cli.js",
			"dist/merge.js",
			"main.js",
		]);
		expect(filesIn(second)).toEqual(filesIn(first));
		for (const file of filesIn(first)) {
			const same = readFileSync(join(first, file)).equals(readFileSync(join(second, file)));
			expect(same, `${file} differs between two builds`).toBe(true);
		}
	});

	it("puts no path of this machine and no build date into main.js", () => {
		const main = readFileSync(join(first, "main.js"), "utf8");
		expect(main.length).toBeGreaterThan(0);
		// Booleans, not toContain: a failure must not print 700 KB of main.js.
		for (const path of [ROOT, first]) expect(main.includes(path), `main.js holds the path ${path}`).toBe(false);
		const today = new Date().toISOString().slice(0, 10);
		expect(main.includes(today), `main.js holds today's date ${today}`).toBe(false);
	});
});
