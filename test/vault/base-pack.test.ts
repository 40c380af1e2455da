import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { promises as fsPromises } from "fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BaseStore } from "../../src/service/stores/base-store";
import { revisionOf } from "../../src/core/revision";
import { nodeTimers } from "../../src/headless/node-timers";
import { PackedBlobStorage } from "../../src/vault/base-pack";

let folder: string;
beforeEach(async () => {
	folder = join(await mkdtemp(join(tmpdir(), "rg-pack-")), "bases");
});
afterEach(async () => {
	await rm(join(folder, ".."), { recursive: true, force: true });
});

const segments = async () => (await readdir(folder)).filter((name) => name.endsWith(".rgpack")).sort();

describe("PackedBlobStorage", () => {
	it("serves a base at once, and from its segment once written and after a restart", async () => {
		const pack = await PackedBlobStorage.open(folder, nodeTimers);
		const written = pack.write("k1", "héllo\nworld");
		expect(await pack.read("k1")).toBe("héllo\nworld");
		await written;
		expect(await pack.read("k1")).toBe("héllo\nworld");
		await pack.close();
		const again = await PackedBlobStorage.open(folder, nodeTimers);
		expect(await again.read("k1")).toBe("héllo\nworld");
		expect(await again.read("nope")).toBeNull();
		await again.close();
	});

	it("writes many bases into one segment file, not a file each", async () => {
		const pack = await PackedBlobStorage.open(folder, nodeTimers);
		await Promise.all(Array.from({ length: 200 }, (_, i) => pack.write(`k${i}`, `content ${i}\n`)));
		await pack.close();
		expect(await readdir(folder)).toHaveLength(1);
	});

	it("forgets removed bases, and after a restart keeps only what the index still lists", async () => {
		const pack = await PackedBlobStorage.open(folder, nodeTimers);
		await pack.write("a", "A");
		await pack.write("b", "B");
		await pack.remove("a");
		expect(await pack.read("a")).toBeNull();
		await pack.close();
		const again = await PackedBlobStorage.open(folder, nodeTimers);
		// The pack does not record removals: the caller's index says what is kept.
		await again.retainOnly((key) => key === "b");
		expect(await again.read("a")).toBeNull();
		expect(await again.read("b")).toBe("B");
		await again.close();
	});

	it("rolls to new segments, deletes emptied ones and compacts mostly dead ones", async () => {
		const pack = await PackedBlobStorage.open(folder, nodeTimers, { segmentBytes: 1024 });
		const content = (i: number) => `${i} `.repeat(40);
		await Promise.all(Array.from({ length: 40 }, (_, i) => pack.write(`k${i}`, content(i))));
		expect((await segments()).length).toBeGreaterThan(5);
		// Evict all but every tenth base, oldest first (as the LRU store does).
		for (let i = 0; i < 40; i++) if (i % 10 !== 0) await pack.remove(`k${i}`);
		await pack.settle();
		const usage = pack.usage();
		expect(usage.bytes).toBeLessThanOrEqual(2 * usage.liveBytes + 1024);
		for (let i = 0; i < 40; i += 10) expect(await pack.read(`k${i}`)).toBe(content(i));
		await pack.close();
		expect((await segments()).length).toBeLessThanOrEqual(4);
		const again = await PackedBlobStorage.open(folder, nodeTimers, { segmentBytes: 1024 });
		for (let i = 0; i < 40; i += 10) expect(await again.read(`k${i}`)).toBe(content(i));
		await again.close();
	});

	it("reads a base that compaction moved (and whose old segment it deleted) while the read was under way", async () => {
		const pack = await PackedBlobStorage.open(folder, nodeTimers, { segmentBytes: 1024 });
		const content = (i: number) => `${i} `.repeat(40);
		await Promise.all(Array.from({ length: 40 }, (_, i) => pack.write(`k${i}`, content(i))));
		// Hold the read's open of k0's segment until compaction has moved k0 and deleted that segment.
		const realOpen = fsPromises.open.bind(fsPromises);
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const spy = vi.spyOn(fsPromises, "open").mockImplementation(async (...args: Parameters<typeof fsPromises.open>) => {
			if (args[1] === "r") await held;
			return realOpen(...args);
		});
		try {
			const reading = pack.read("k0");
			for (let i = 1; i < 40; i++) if (i % 10 !== 0) await pack.remove(`k${i}`);
			await pack.settle();
			expect(await segments()).not.toContain("pack-00000001.rgpack");
			release();
			expect(await reading).toBe(content(0));
		} finally {
			spy.mockRestore();
			await pack.close();
		}
	});

	it("ignores a record torn by a crash and appends to a segment of its own afterwards", async () => {
		const pack = await PackedBlobStorage.open(folder, nodeTimers);
		await pack.write("whole", "kept");
		await pack.write("torn", "cut short by a crash");
		await pack.close();
		const [segment] = await segments();
		const size = (await readFile(join(folder, segment!))).length;
		await truncate(join(folder, segment!), size - 5);
		const again = await PackedBlobStorage.open(folder, nodeTimers);
		expect(await again.read("whole")).toBe("kept");
		expect(await again.read("torn")).toBeNull();
		await again.write("new", "after");
		await again.close();
		expect((await segments()).length).toBe(2);
		const third = await PackedBlobStorage.open(folder, nodeTimers);
		expect(await third.read("new")).toBe("after");
		await third.close();
	});

	it("still reads, and removes, a base an older version kept as a file of its own", async () => {
		await rm(folder, { recursive: true, force: true });
		const { mkdir } = await import("fs/promises");
		await mkdir(folder, { recursive: true });
		await writeFile(join(folder, "old-key"), "old base");
		await writeFile(join(folder, "unlisted-key"), "evicted before the upgrade");
		const pack = await PackedBlobStorage.open(folder, nodeTimers);
		await pack.retainOnly((key) => key === "old-key");
		await pack.settle();
		expect(await readdir(folder)).not.toContain("unlisted-key");
		expect(await pack.read("old-key")).toBe("old base");
		await pack.remove("old-key");
		expect(await readdir(folder)).not.toContain("old-key");
		await pack.close();
	});

	it("refuses a key that could break the record format", async () => {
		const pack = await PackedBlobStorage.open(folder, nodeTimers);
		await expect(pack.write("two words", "x")).rejects.toThrow();
		await expect(pack.write("line\nbreak", "x")).rejects.toThrow();
		await pack.close();
	});

	it("serves BaseStore: a base read back is checked against its revision", async () => {
		const pack = await PackedBlobStorage.open(folder, nodeTimers);
		const store = new BaseStore(pack, 1024 * 1024, 0);
		const text = "# A note\n\nsome text\n";
		await store.retain(revisionOf(text), text);
		await store.settle();
		expect(await store.get(revisionOf(text))).toBe(text);
		await pack.close();
	});
});
