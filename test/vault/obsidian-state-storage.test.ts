/**
 * The plugin's state files (conflict records, history) through Obsidian's adapter, which writes in place and may
 * refuse to move a file over an existing one. A save in progress must never leave a moment with no complete state
 * file (a quick disable and enable once read nothing there and failed to start), and a load must tolerate one.
 */
import { mkdtemp, readdir, rm, utimes } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { DataAdapter as ObsidianAdapter } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ObsidianStateStorage } from "../../src/vault/obsidian-state-storage";
import { DataAdapter } from "../obsidian-stub";

let dir: string;
let adapter: DataAdapter;
let storage: ObsidianStateStorage;
const FOLDER = ".obsidian/plugins/revision-guard";

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-state-"));
	adapter = new DataAdapter(dir);
	storage = new ObsidianStateStorage(adapter as unknown as ObsidianAdapter, FOLDER);
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** Runs `check` after every step the adapter takes during `work`. */
async function duringEveryStep(work: () => Promise<void>, check: () => Promise<void>): Promise<number> {
	let steps = 0;
	const methods = adapter as unknown as Record<string, (...args: string[]) => Promise<void>>;
	for (const method of ["write", "rename", "remove", "mkdir"]) {
		const original = methods[method]!.bind(adapter);
		methods[method] = async (...args: string[]) => {
			await original(...args);
			steps++;
			await check();
		};
	}
	await work();
	return steps;
}

describe("ObsidianStateStorage", () => {
	it("reads back what it wrote", async () => {
		expect(await storage.read("conflicts.json")).toBeNull();
		await storage.write("conflicts.json", '{"a":1}');
		await storage.write("conflicts.json", '{"a":2}');
		expect(await storage.read("conflicts.json")).toBe('{"a":2}');
	});

	it("keeps a complete state file at every step of a save, and a load at any step reads the old or the new state", async () => {
		await storage.write("conflicts.json", '{"version":"old"}');
		const seen = new Set<string | null>();
		const steps = await duringEveryStep(
			() => storage.write("conflicts.json", '{"version":"new"}'),
			async () => {
				expect(await adapter.exists(`${FOLDER}/conflicts.json`)).toBe(true);
				seen.add(await storage.read("conflicts.json"));
			},
		);
		expect(steps).toBeGreaterThan(1);
		expect([...seen].every((state) => state === '{"version":"old"}' || state === '{"version":"new"}')).toBe(true);
		expect(await storage.read("conflicts.json")).toBe('{"version":"new"}');
	});

	it("prefers a complete copy left by a save that stopped half way, and ignores a torn one", async () => {
		await storage.write("history.json", '{"version":"old"}');
		await adapter.write(`${FOLDER}/history.json.tmp`, '{"version":"new"}');
		expect(await storage.read("history.json")).toBe('{"version":"new"}');
		await adapter.write(`${FOLDER}/history.json.tmp`, '{"version":"ne');
		expect(await storage.read("history.json")).toBe('{"version":"old"}');
	});

	it("gives every save a copy of its own: another instance's save meanwhile never moves or removes this one's", async () => {
		// A disabled instance's first snapshot still under way while the next instance saves the same file (issue 22).
		const other = new ObsidianStateStorage(adapter as unknown as ObsidianAdapter, FOLDER);
		const rename = adapter.rename.bind(adapter);
		let paused = false;
		adapter.rename = async (from, to) => {
			// This save's copy is written; the other instance saves the file from start to end before it goes on.
			if (!paused) {
				paused = true;
				await other.write("conflicts.json", '{"save":"other"}');
			}
			return rename(from, to);
		};
		await storage.write("conflicts.json", '{"save":"this"}');
		expect(await storage.read("conflicts.json")).toBe('{"save":"this"}');
		expect((await readdir(join(dir, FOLDER))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
	});

	it("prefers the newest complete copy a crash left, ignores a torn one, and removes them all with the next save", async () => {
		await storage.write("history.json", '{"version":"old"}');
		// Copies of saves that stopped half way in two earlier runs, the later one last; and one cut short.
		await adapter.write(`${FOLDER}/history.json.earlier-1.tmp`, '{"version":"new"}');
		await utimes(join(dir, FOLDER, "history.json.earlier-1.tmp"), 1_000, 1_000);
		await adapter.write(`${FOLDER}/history.json.later-1.tmp`, '{"version":"newer"}');
		await adapter.write(`${FOLDER}/history.json.torn-1.tmp`, '{"version":"ne');
		const restarted = new ObsidianStateStorage(adapter as unknown as ObsidianAdapter, FOLDER);
		expect(await restarted.read("history.json")).toBe('{"version":"newer"}');
		await restarted.write("history.json", '{"version":"newest"}');
		expect(await new ObsidianStateStorage(adapter as unknown as ObsidianAdapter, FOLDER).read("history.json")).toBe(
			'{"version":"newest"}',
		);
		expect((await readdir(join(dir, FOLDER))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
	});

	it("removes an older version's copy (one fixed name) once a save has replaced the file", async () => {
		await storage.write("history.json", '{"version":"old"}');
		await adapter.write(`${FOLDER}/history.json.tmp`, '{"version":"new"}');
		await storage.write("history.json", '{"version":"newer"}');
		expect(await storage.read("history.json")).toBe('{"version":"newer"}');
		expect(await adapter.exists(`${FOLDER}/history.json.tmp`)).toBe(false);
	});

	it("appends to the end of a file, creating it and its folder first, and again after a removal", async () => {
		await storage.append("conflicts.jsonl", "one\n");
		await storage.append("conflicts.jsonl", "two\n");
		expect(await storage.read("conflicts.jsonl")).toBe("one\ntwo\n");
		await storage.remove("conflicts.jsonl");
		expect(await storage.read("conflicts.jsonl")).toBeNull();
		await storage.append("conflicts.jsonl", "three\n");
		expect(await adapter.read(`${FOLDER}/conflicts.jsonl`)).toBe("three\n");
	});

	it("appends through the adapter's own append once the file exists (no rewrite of what is there)", async () => {
		await storage.append("conflicts.jsonl", "one\n");
		const writes: string[] = [];
		const write = adapter.write.bind(adapter);
		adapter.write = async (path, data) => {
			writes.push(path);
			await write(path, data);
		};
		await storage.append("conflicts.jsonl", "two\n");
		await new ObsidianStateStorage(adapter as unknown as ObsidianAdapter, FOLDER).append("conflicts.jsonl", "three\n");
		expect(writes).toEqual([]);
		expect(await storage.read("conflicts.jsonl")).toBe("one\ntwo\nthree\n");
	});
});

describe("ObsidianStateStorage.readLines", () => {
	it("hands over each line, stops when told, and says false for a file that is not there", async () => {
		await storage.write("history.json", "a\n\nb\nc\n");
		const seen: string[] = [];
		expect(await storage.readLines("history.json", (line) => seen.push(line) > 0)).toBe(true);
		expect(seen).toEqual(["a", "", "b", "c"]);
		const some: string[] = [];
		expect(await storage.readLines("history.json", (line) => some.push(line) < 2)).toBe(true);
		expect(some).toEqual(["a", ""]);
		expect(await storage.readLines("missing.json", () => true)).toBe(false);
	});

	it("reads what read reads: the newest complete copy a crash left beside the file", async () => {
		await storage.write("history.json", '{"saved":"old"}');
		await adapter.write(`${FOLDER}/history.json.zz000000-1.tmp`, '{"saved":"new"}');
		const fresh = new ObsidianStateStorage(adapter as unknown as ObsidianAdapter, FOLDER);
		const seen: string[] = [];
		await fresh.readLines("history.json", (line) => seen.push(line) > 0);
		expect(seen).toEqual([await fresh.read("history.json")]);
		expect(seen).toEqual(['{"saved":"new"}']);
	});

	it("gives Obsidian a turn while a long file is handed over, and hands over every line all the same", async () => {
		const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
		await storage.write("history.json", lines.join("\n"));
		let turns = 0;
		const paced = new ObsidianStateStorage(adapter as unknown as ObsidianAdapter, FOLDER, undefined, async () => {
			turns++;
			await new Promise((resolve) => setTimeout(resolve, 0));
		});
		const seen: string[] = [];
		await paced.readLines("history.json", (line) => {
			// Each line takes a millisecond to take in, as a large note's history might.
			const until = performance.now() + 1;
			while (performance.now() < until);
			return seen.push(line) > 0;
		});
		expect(seen).toEqual(lines);
		expect(turns).toBeGreaterThan(0);
	});
});
