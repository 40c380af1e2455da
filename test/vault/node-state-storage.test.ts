/** The headless host's state folder: durable appends (the conflict log) beside atomic replaces. */
import { mkdtemp, readFile, realpath, rm, stat } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NodeStateStorage } from "../../src/vault/node-state-storage";
import { failFolderFsync, recordFolderFsyncs } from "../helpers/failing-disk";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-node-state-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(dir, { recursive: true, force: true });
});

describe("NodeStateStorage's folders", () => {
	it("fsyncs a folder it makes into its parent (the state folder too) before a write or an append resolves", async () => {
		const real = await realpath(dir);
		const disk = recordFolderFsyncs();
		const storage = new NodeStateStorage(join(real, "state"));
		await storage.write("history/a.json", "{}");
		expect(disk.folders()).toEqual(expect.arrayContaining([real, join(real, "state"), join(real, "state/history")]));
		await storage.append("logs/conflicts.log", "one\n");
		expect(disk.folders()).toEqual(expect.arrayContaining([join(real, "state/logs")]));
	});

	it("a write into a folder whose making the disk failed to make durable (EIO) rejects", async () => {
		const storage = new NodeStateStorage(join(dir, "state"));
		failFolderFsync("EIO");
		await expect(storage.write("history/a.json", "{}")).rejects.toMatchObject({ code: "EIO" });
	});
});

describe("NodeStateStorage.append", () => {
	it("creates the file (private to this user) and its folder, adds at the end, and starts over after a removal", async () => {
		const storage = new NodeStateStorage(join(dir, "state"));
		await storage.append("conflicts.jsonl", "one\n");
		await storage.append("conflicts.jsonl", "two\n");
		expect(await readFile(join(dir, "state", "conflicts.jsonl"), "utf8")).toBe("one\ntwo\n");
		expect((await stat(join(dir, "state", "conflicts.jsonl"))).mode & 0o777).toBe(0o600);
		expect((await stat(join(dir, "state"))).mode & 0o777).toBe(0o700);
		await storage.remove("conflicts.jsonl");
		await storage.append("conflicts.jsonl", "three\n");
		expect(await storage.read("conflicts.jsonl")).toBe("three\n");
	});

	it("keeps what another storage on the same folder appended (a restart appends to the same log)", async () => {
		await new NodeStateStorage(dir).append("log", "first\n");
		await new NodeStateStorage(dir).append("log", "second\n");
		expect(await new NodeStateStorage(dir).read("log")).toBe("first\nsecond\n");
	});
});

describe("NodeStateStorage.readLines", () => {
	it("hands over each line whole, however the file's pieces fall (characters of several bytes included)", async () => {
		const storage = new NodeStateStorage(dir);
		// Lines longer than a piece, and a character of four bytes astride every boundary a piece could have.
		const lines = Array.from({ length: 40 }, (_, i) => `${i} ${"é😀x".repeat(i * 997)}`);
		await storage.write("lines", lines.join("\n"));
		const seen: string[] = [];
		expect(await storage.readLines("lines", (line) => seen.push(line) > 0)).toBe(true);
		expect(seen).toEqual(lines);
	});

	it("stops when told, and says false for a file that is not there", async () => {
		const storage = new NodeStateStorage(dir);
		await storage.write("lines", "a\nb\nc\n");
		const seen: string[] = [];
		expect(await storage.readLines("lines", (line) => seen.push(line) < 2)).toBe(true);
		expect(seen).toEqual(["a", "b"]);
		expect(await storage.readLines("missing", () => true)).toBe(false);
	});

	it("hands over a line of many pieces whole (history.json's merge-base index can pass a megabyte)", async () => {
		const storage = new NodeStateStorage(dir);
		const lines = ["head", `[${'"base",'.repeat(500_000)}"x"]`, "tail"];
		await storage.write("long-line", lines.join("\n"));
		const seen: string[] = [];
		expect(await storage.readLines("long-line", (line) => seen.push(line) > 0)).toBe(true);
		expect(seen).toEqual(lines);
	});

	it("rejects a file whose line is too long to hand over (a state file of one line, from an older version)", async () => {
		const storage = new NodeStateStorage(dir, 1024 * 1024);
		await storage.write("one-line", `[${'"x",'.repeat(600_000)}"x"]`);
		const seen: string[] = [];
		await expect(storage.readLines("one-line", (line) => seen.push(line) > 0)).rejects.toThrow(/line longer/);
		expect(seen).toEqual([]);
	});
});
