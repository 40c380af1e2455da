/** The `merge` command of the headless CLI, checked against git merge-file on the same files. */
import { execFileSync, spawnSync } from "child_process";
import { existsSync } from "fs";
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArgs } from "../../src/headless/args";

const CLI = join(__dirname, "../../dist/cli.js");
let dir: string;

beforeAll(async () => {
	if (!existsSync(CLI)) throw new Error("dist/cli.js is missing: run `npm run build` (npm test does it first)");
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

function ours(args: string[]): { stdout: string; status: number | null } {
	const run = spawnSync("node", [CLI, "merge", ...args], { encoding: "utf8" });
	return { stdout: run.stdout, status: run.status };
}

function git(args: string[]): { stdout: string; status: number } {
	try {
		return { stdout: execFileSync("git", ["merge-file", "-p", ...args], { encoding: "utf8" }), status: 0 };
	} catch (error) {
		const failed = error as { stdout: string; status: number };
		return { stdout: failed.stdout, status: failed.status };
	}
}

describe("npm start -- merge", () => {
	it("prints a clean merge and exits 0, exactly like git merge-file -p", async () => {
		const paths = await files("a\nb\nc\nd\ne\n", "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n");
		expect(ours(paths)).toEqual(git(paths));
		expect(ours(paths)).toEqual({ stdout: "A\nb\nc\nd\nE\n", status: 0 });
	});

	it("prints conflict markers and exits with the number of conflicts", async () => {
		const paths = await files("a\nb\nc\nd\ne\nf\ng\n", "A1\nb\nc\nd\ne\nf\nG1\n", "A2\nb\nc\nd\ne\nf\nG2\n");
		const run = ours(paths);
		expect(run.status).toBe(2);
		expect(run.status).toBe(git(paths).status);
		expect(run.stdout).toBe("<<<<<<< mine\nA1\n=======\nA2\n>>>>>>> agent\nb\nc\nd\ne\nf\n<<<<<<< mine\nG1\n=======\nG2\n>>>>>>> agent\n");
	});

	it("shows the base with --diff3", async () => {
		const paths = await files("x\n", "mine\n", "theirs\n");
		expect(ours([...paths, "--diff3"]).stdout).toBe("<<<<<<< mine\nmine\n||||||| base\nx\n=======\ntheirs\n>>>>>>> agent\n");
	});

	it("exits 255 with a message for a missing or non-UTF-8 file", async () => {
		const paths = await files("a\n", "a\n", "a\n");
		expect(ours([paths[0], join(dir, "nope.md"), paths[2]]).status).toBe(255);
		await writeFile(paths[1], Buffer.from([0xff, 0xfe, 0x00]));
		expect(ours(paths).status).toBe(255);
	});
});

describe("parseArgs merge", () => {
	it("reads three files and --diff3 in any position", () => {
		expect(parseArgs(["merge", "--diff3", "m", "b", "t"])).toEqual({ command: "merge", mine: "m", base: "b", theirs: "t", diff3: true });
		expect(parseArgs(["merge", "m", "b", "t"])).toMatchObject({ diff3: false });
	});
	it("refuses the wrong number of files or unknown options", () => {
		expect(parseArgs(["merge", "m", "b"]).command).toBe("error");
		expect(parseArgs(["merge", "m", "b", "t", "--fast"]).command).toBe("error");
	});
});
