/**
 * The merge program (package.json's bin revision-guard-merge, the BUILT dist/merge.js; `npm test` builds it first),
 * checked against git merge-file on the same files. The host's `npm start -- merge` runs the same command.
 */
import { execFileSync, spawnSync } from "child_process";
import { existsSync, readFileSync } from "fs";
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArgs, parseMergeArgs } from "../../src/headless/args";

const ROOT = join(__dirname, "../..");
const BIN = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }).bin[
	"revision-guard-merge"
]!;
const MERGE = join(ROOT, BIN);
const CLI = join(ROOT, "dist/cli.js");
let dir: string;

beforeAll(async () => {
	for (const built of [MERGE, CLI])
		if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` (npm test does it first)`);
	dir = await mkdtemp(join(tmpdir(), "rg-merge-cli-"));
});
afterAll(async () => {
	await rm(dir, { recursive: true, force: true });
});

async function files(base: string, mine: string, theirs: string): Promise<[string, string, string]> {
	const paths: [string, string, string] = [join(dir, "mine.md"), join(dir, "base.md"), join(dir, "theirs.md")];
	await writeFile(paths[0], mine);
	await writeFile(paths[1], base);
	await writeFile(paths[2], theirs);
	return paths;
}

function ours(args: string[]): { stdout: string; status: number | null; stderr: string } {
	const run = spawnSync(process.execPath, [MERGE, ...args], { encoding: "utf8" });
	return { stdout: run.stdout, status: run.status, stderr: run.stderr };
}

function throughHost(args: string[]): { stdout: string; status: number | null } {
	const run = spawnSync(process.execPath, [CLI, "merge", ...args], { encoding: "utf8" });
	return { stdout: run.stdout, status: run.status };
}

const outcome = ({ stdout, status }: { stdout: string; status: number | null }) => ({ stdout, status });

function git(args: string[]): { stdout: string; status: number } {
	try {
		return { stdout: execFileSync("git", ["merge-file", "-p", ...args], { encoding: "utf8" }), status: 0 };
	} catch (error) {
		const failed = error as { stdout: string; status: number };
		return { stdout: failed.stdout, status: failed.status };
	}
}

describe("revision-guard-merge", () => {
	it("is a node program by its first line, so npm can link it as a command", () => {
		expect(readFileSync(MERGE, "utf8").split("\n", 1)[0]).toBe("#!/usr/bin/env node");
	});

	it("prints a clean merge and exits 0, exactly like git merge-file -p", async () => {
		const paths = await files("a\nb\nc\nd\ne\n", "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n");
		expect(outcome(ours(paths))).toEqual(git(paths));
		expect(outcome(ours(paths))).toEqual({ stdout: "A\nb\nc\nd\nE\n", status: 0 });
	});

	it("merges tags added on both sides as a set, where git's line merge conflicts (the YAML rule is in the program)", async () => {
		const paths = await files(
			"---\ntitle: A\ntags: [x]\n---\nbody\n",
			"---\ntitle: A\ntags: [x, a]\n---\nbody\n",
			"---\ntitle: A\ntags: [x, b]\n---\nbody\n",
		);
		expect(git(paths).status).toBe(1);
		expect(outcome(ours(paths))).toEqual({ stdout: "---\ntitle: A\ntags: [x, a, b]\n---\nbody\n", status: 0 });
	});

	it("prints conflict markers and exits with the number of conflicts", async () => {
		const paths = await files("a\nb\nc\nd\ne\nf\ng\n", "A1\nb\nc\nd\ne\nf\nG1\n", "A2\nb\nc\nd\ne\nf\nG2\n");
		const run = ours(paths);
		expect(run.status).toBe(2);
		expect(run.status).toBe(git(paths).status);
		expect(run.stdout).toBe(
			"<<<<<<< mine\nA1\n=======\nA2\n>>>>>>> agent\nb\nc\nd\ne\nf\n<<<<<<< mine\nG1\n=======\nG2\n>>>>>>> agent\n",
		);
	});

	it("shows the base with --diff3", async () => {
		const paths = await files("x\n", "mine\n", "theirs\n");
		expect(ours([...paths, "--diff3"]).stdout).toBe(
			"<<<<<<< mine\nmine\n||||||| base\nx\n=======\ntheirs\n>>>>>>> agent\n",
		);
	});

	it("exits 255 with a message for a missing or non-UTF-8 file", async () => {
		const paths = await files("a\n", "a\n", "a\n");
		const missing = ours([paths[0], join(dir, "nope.md"), paths[2]]);
		expect(missing.status).toBe(255);
		expect(missing.stderr).toContain("nope.md");
		await writeFile(paths[1], Buffer.from([0xff, 0xfe, 0x00]));
		expect(ours(paths)).toMatchObject({ status: 255, stdout: "", stderr: `merge: ${paths[1]} is not UTF-8 text\n` });
	});

	it("exits 129 (git's usage code, never a conflict count) with its usage for wrong arguments; --help prints it", () => {
		const wrong = ours(["only-one.md"]);
		expect(wrong).toMatchObject({ status: 129, stdout: "" });
		expect(wrong.stderr).toContain("merge needs three files: MINE BASE THEIRS.");
		expect(wrong.stderr).toContain("Usage: revision-guard-merge MINE BASE THEIRS [--diff3]");
		const help = ours(["--help"]);
		expect(help).toMatchObject({ status: 0, stderr: "" });
		expect(help.stdout).toContain("Usage: revision-guard-merge MINE BASE THEIRS [--diff3]");
	});
});

describe("npm start -- merge", () => {
	it("gives the merge program's output and exit code", async () => {
		const paths = await files("a\nb\nc\nd\ne\nf\ng\n", "A1\nb\nc\nd\ne\nf\nG1\n", "A2\nb\nc\nd\ne\nf\nG2\n");
		expect(throughHost([...paths, "--diff3"])).toEqual(outcome(ours([...paths, "--diff3"])));
		expect(throughHost(paths).status).toBe(2);
	});
});

describe("parseArgs merge", () => {
	it("reads three files and --diff3 in any position", () => {
		expect(parseArgs(["merge", "--diff3", "m", "b", "t"])).toEqual({
			command: "merge",
			mine: "m",
			base: "b",
			theirs: "t",
			diff3: true,
		});
		expect(parseArgs(["merge", "m", "b", "t"])).toMatchObject({ diff3: false });
	});
	it("refuses the wrong number of files or unknown options", () => {
		expect(parseArgs(["merge", "m", "b"]).command).toBe("error");
		expect(parseArgs(["merge", "m", "b", "t", "--fast"]).command).toBe("error");
	});
	it("is the merge program's parser, with --help", () => {
		expect(parseMergeArgs(["m", "b", "t"])).toEqual(parseArgs(["merge", "m", "b", "t"]));
		expect(parseMergeArgs(["m", "--help"])).toEqual({ command: "help" });
		expect(parseMergeArgs(["-h"])).toEqual({ command: "help" });
	});
});
