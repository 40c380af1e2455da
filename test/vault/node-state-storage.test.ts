/** The headless host's state folder: durable appends (the conflict log) beside atomic replaces. */
import { mkdtemp, readFile, rm, stat } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeStateStorage } from "../../src/vault/node-state-storage";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-node-state-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
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
