import { execFileSync } from "child_process";
import { statSync, utimesSync } from "fs";
import { appendFile, mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { NoteReadCache } from "../../src/vault/note-read-cache";
import { eachHeadless, type Harness } from "../helpers/headless-harness";

/** Long enough for a file's change time to be "settled" (note-file.ts): an entry is kept only for a settled file. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 80));
/** Rewrites a file in place with other bytes of the same size and puts its mtime back to the nanosecond (`touch -r`). */
async function editKeepingSizeAndMtime(file: string, content: string): Promise<void> {
	const times = `${file}.times`;
	await writeFile(times, "");
	execFileSync("touch", ["-r", file, times]);
	await writeFile(file, content);
	execFileSync("touch", ["-r", times, file]);
	await rm(times);
}
const snapshotOf = (path: string, content: string) => ({
	path,
	content,
	stat: { ctime: 0, mtime: 0, size: content.length },
});

describe("NoteReadCache", () => {
	let dir: string;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-cache-"));
	});
	afterEach(() => rm(dir, { recursive: true, force: true }));

	it("answers from memory while one stat shows the same file, and sends every change to the disk", async () => {
		const file = join(dir, "n.md");
		await writeFile(file, "one\n");
		const cache = new NoteReadCache();
		const kept = snapshotOf("n.md", "one\n");
		cache.keep(kept, statSync(file, { bigint: true }), true);
		expect(await cache.lookup("n.md", file)).toBe(kept);
		await appendFile(file, "two\n");
		expect(await cache.lookup("n.md", file)).toBeNull();
	});

	it("does not keep a note read while it may still be changing within one tick of the file system's clock", async () => {
		const file = join(dir, "n.md");
		await writeFile(file, "one\n");
		const cache = new NoteReadCache();
		cache.keep(snapshotOf("n.md", "one\n"), statSync(file, { bigint: true }), false);
		expect(await cache.lookup("n.md", file)).toBeNull();
	});

	it("misses for a file replaced by another (a rename over it), even with the same size and times", async () => {
		const file = join(dir, "n.md");
		await writeFile(file, "one\n");
		const identity = statSync(file, { bigint: true });
		const cache = new NoteReadCache();
		cache.keep(snapshotOf("n.md", "one\n"), identity, true);
		await writeFile(join(dir, "other.md"), "two\n");
		const seconds = Number(identity.mtimeMs) / 1000;
		utimesSync(join(dir, "other.md"), seconds, seconds);
		await rm(file);
		await import("fs/promises").then((fs) => fs.rename(join(dir, "other.md"), file));
		expect(await cache.lookup("n.md", file)).toBeNull();
	});

	it("stays within its memory bound, dropping the least recently used notes first", async () => {
		const cache = new NoteReadCache();
		const files = await Promise.all(
			["a", "b", "c", "d", "e", "f", "g", "h", "i"].map(async (name) => {
				const file = join(dir, `${name}.md`);
				await writeFile(file, name);
				return { name, file };
			}),
		);
		const big = "x".repeat(1024 * 1024);
		for (const { name, file } of files)
			cache.keep(snapshotOf(`${name}.md`, big), statSync(file, { bigint: true }), true);
		// 9 × 1 M characters against an 8 M bound: the first is gone, the last is there.
		expect(await cache.lookup("a.md", files[0]!.file)).toBeNull();
		expect(await cache.lookup("i.md", files[8]!.file)).not.toBeNull();
		cache.keep(snapshotOf("huge.md", big + "x"), statSync(files[0]!.file, { bigint: true }), true);
		expect(await cache.lookup("huge.md", files[0]!.file)).toBeNull();
	});
});

describe("NodeFsGateway with its read cache", () => {
	let root: string;
	let gateway: NodeFsGateway;
	let unsubscribe: () => void;
	beforeEach(async () => {
		root = await mkdtemp(join(tmpdir(), "rg-cache-gw-"));
		gateway = await NodeFsGateway.open(root);
		// The cache is used only while the watcher runs (its changes drop entries): as in the host, someone listens.
		unsubscribe = gateway.onChange(() => undefined);
		await gateway.watching();
	});
	afterEach(async () => {
		await gateway.close();
		await rm(root, { recursive: true, force: true });
	});

	it("reads a settled note once from disk, then from memory, and reads an outside edit with the same size and mtime", async () => {
		const file = join(root, "n.md");
		await writeFile(file, "aaaa\n");
		await settle();
		const first = await gateway.read("n.md");
		expect(await gateway.read("n.md")).toBe(first);
		const before = statSync(file, { bigint: true });
		await editKeepingSizeAndMtime(file, "bbbb\n");
		expect(statSync(file, { bigint: true })).toMatchObject({
			size: before.size,
			mtimeNs: before.mtimeNs,
			ino: before.ino,
		});
		expect((await gateway.read("n.md"))?.content).toBe("bbbb\n");
	});

	it("is not used while nobody listens to the watcher (nothing would drop an entry for a folder moved away)", async () => {
		await writeFile(join(root, "n.md"), "old\n");
		await settle();
		unsubscribe();
		const first = await gateway.read("n.md");
		expect(await gateway.read("n.md")).not.toBe(first);
	});

	it("never keeps an entry past our own write (the next read shows what was written)", async () => {
		await writeFile(join(root, "n.md"), "old\n");
		await settle();
		await gateway.read("n.md");
		await gateway.read("n.md");
		await gateway.mutate("n.md", () => ({ kind: "write", content: "new\n", result: null }));
		expect((await gateway.read("n.md"))?.content).toBe("new\n");
	});
});

describe("the write check never looks at the read cache", () => {
	let h: Harness;
	eachHeadless((harness) => (h = harness));

	it("an outside edit with the same size and the same mtime still makes the old token stale on write, even if the cache were wrong", async () => {
		const file = join(h.dir, "n.md");
		await writeFile(file, "the person's first line\n");
		await settle();
		const read = await h.api("/vault/n.md");
		const stale = read.headers.etag as string;
		await editKeepingSizeAndMtime(file, "the person's other line\n");
		// The worst a cache could do: keep answering with what it held, as if the stat had not changed at all.
		const lookup = vi
			.spyOn(NoteReadCache.prototype, "lookup")
			.mockImplementation(async (path) => snapshotOf(path, "the person's first line\n"));
		try {
			expect((await h.api("/vault/n.md")).headers.etag).toBe(stale);
			const put = await h.api("/vault/n.md", {
				method: "PUT",
				body: "the agent's line\n",
				headers: { "If-Match": stale },
			});
			expect(put.status).toBe(412);
		} finally {
			lookup.mockRestore();
		}
		expect(statSync(file).size).toBe(Buffer.byteLength("the person's other line\n"));
		expect((await h.api("/vault/n.md")).text).toBe("the person's other line\n");
	});
});
