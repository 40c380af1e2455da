import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BaseStore, type BlobStorage } from "../../../src/service/stores/base-store";
import { revisionOf } from "../../../src/core/revision";

/** An in-memory BlobStorage that counts calls, with an optional gate to hold writes open. */
class MemoryBlobs implements BlobStorage {
	readonly blobs = new Map<string, string>();
	reads = 0;
	writes = 0;
	removes = 0;
	gate: Promise<void> | null = null;
	failWrites = false;

	async read(key: string): Promise<string | null> {
		this.reads++;
		return this.blobs.get(key) ?? null;
	}

	async write(key: string, content: string): Promise<void> {
		this.writes++;
		if (this.gate) await this.gate;
		if (this.failWrites) throw new Error("disk full");
		this.blobs.set(key, content);
	}

	async remove(key: string): Promise<void> {
		this.removes++;
		this.blobs.delete(key);
	}
}

const bytes = (text: string) => new TextEncoder().encode(text).length;

async function retainText(store: BaseStore, text: string): Promise<string> {
	const revision = revisionOf(text);
	await store.retain(revision, text);
	return revision;
}

describe("BaseStore retain/get", () => {
	it("round-trips content by revision", async () => {
		const storage = new MemoryBlobs();
		const store = new BaseStore(storage, 1000);
		const revision = await retainText(store, "hello\n");
		expect(store.has(revision)).toBe(true);
		expect(await store.get(revision)).toBe("hello\n");
		expect(storage.blobs.get(revision)).toBe("hello\n");
	});

	it("returns null for an unknown revision without touching storage", async () => {
		const storage = new MemoryBlobs();
		const store = new BaseStore(storage, 1000);
		expect(await store.get("nope")).toBeNull();
		expect(store.has("nope")).toBe(false);
		expect(storage.reads).toBe(0);
	});

	it("counts UTF-8 bytes, not UTF-16 units", async () => {
		const store = new BaseStore(new MemoryBlobs(), 1000);
		await retainText(store, "é😀");
		expect(store.stats().bytes).toBe(6);
	});

	it("serves hot bases from memory and cold ones from storage", async () => {
		const storage = new MemoryBlobs();
		const hot = new BaseStore(storage, 1000);
		const revision = await retainText(hot, "content");
		expect(await hot.get(revision)).toBe("content");
		expect(storage.reads).toBe(0);

		const cold = new BaseStore(storage, 1000);
		cold.load(hot.toSnapshot());
		expect(await cold.get(revision)).toBe("content");
		expect(await cold.get(revision)).toBe("content");
		expect(storage.reads).toBe(1);
	});

	it("does not cache bases bigger than the cache cap but still serves them", async () => {
		const storage = new MemoryBlobs();
		const store = new BaseStore(storage, 1000, 4);
		const revision = await retainText(store, "0123456789");
		expect(store.stats().cachedBytes).toBe(0);
		expect(await store.get(revision)).toBe("0123456789");
		expect(storage.reads).toBe(1);
	});

	it("retaining a known revision again writes nothing and counts it once", async () => {
		const storage = new MemoryBlobs();
		const store = new BaseStore(storage, 1000);
		await retainText(store, "same");
		await retainText(store, "same");
		expect(storage.writes).toBe(1);
		expect(store.stats()).toMatchObject({ entries: 1, bytes: 4 });
	});

	it("counts a revision once when it is retained twice at the same time", async () => {
		const storage = new MemoryBlobs();
		let open!: () => void;
		storage.gate = new Promise<void>((resolve) => (open = resolve));
		const store = new BaseStore(storage, 1000);
		const revision = revisionOf("same content");
		const first = store.retain(revision, "same content");
		const second = store.retain(revision, "same content");
		open();
		await Promise.all([first, second]);
		expect(store.stats()).toMatchObject({ entries: 1, bytes: bytes("same content") });
		expect(store.toSnapshot().entries).toEqual([[revision, bytes("same content")]]);
	});
});

describe("BaseStore eviction", () => {
	it("evicts least recently retained bases once over the cap", async () => {
		const storage = new MemoryBlobs();
		const store = new BaseStore(storage, 10);
		const a = await retainText(store, "aaaa");
		const b = await retainText(store, "bbbb");
		const c = await retainText(store, "cccc");
		expect(store.has(a)).toBe(false);
		expect(storage.blobs.has(a)).toBe(false);
		expect(store.has(b)).toBe(true);
		expect(store.has(c)).toBe(true);
		expect(store.stats().bytes).toBe(8);
		expect(await store.get(a)).toBeNull();
	});

	it("evicts the least recently used base: get() refreshes a base", async () => {
		const store = new BaseStore(new MemoryBlobs(), 10);
		const a = await retainText(store, "aaaa");
		const b = await retainText(store, "bbbb");
		expect(await store.get(a)).toBe("aaaa");
		const c = await retainText(store, "cccc");
		expect(store.has(a)).toBe(true);
		expect(store.has(b)).toBe(false);
		expect(store.has(c)).toBe(true);
	});

	it("re-retaining a base refreshes it too", async () => {
		const store = new BaseStore(new MemoryBlobs(), 10);
		const a = await retainText(store, "aaaa");
		const b = await retainText(store, "bbbb");
		await retainText(store, "aaaa");
		await retainText(store, "cccc");
		expect(store.has(a)).toBe(true);
		expect(store.has(b)).toBe(false);
	});

	it("never evicts the base just retained, even when it alone exceeds the cap", async () => {
		const storage = new MemoryBlobs();
		const store = new BaseStore(storage, 5);
		const small = await retainText(store, "abc");
		const big = await retainText(store, "x".repeat(50));
		expect(store.has(big)).toBe(true);
		expect(store.has(small)).toBe(false);
		expect(await store.get(big)).toBe("x".repeat(50));
		expect(store.stats()).toMatchObject({ entries: 1, bytes: 50 });
		// The next base pushes the oversized one out.
		const next = await retainText(store, "def");
		expect(store.has(big)).toBe(false);
		expect(store.has(next)).toBe(true);
	});

	it("setCap shrinks the store down to the new cap, oldest first", async () => {
		const storage = new MemoryBlobs();
		const store = new BaseStore(storage, 100);
		const revisions = [];
		for (const text of ["1111", "2222", "3333", "4444"]) revisions.push(await retainText(store, text));
		await store.setCap(8);
		expect(revisions.map((r) => store.has(r))).toEqual([false, false, true, true]);
		expect(store.stats()).toMatchObject({ entries: 2, bytes: 8, capBytes: 8 });
		expect(storage.blobs.size).toBe(2);
		await store.setCap(0);
		expect(store.stats()).toMatchObject({ entries: 0, bytes: 0 });
		expect(storage.blobs.size).toBe(0);
	});

	it("keeps total bytes in step with the entries and under the cap except for the newest (property)", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: 40 }),
				fc.array(
					fc.oneof(fc.record({ retain: fc.string({ maxLength: 12 }) }), fc.record({ get: fc.nat({ max: 20 }) })),
					{ maxLength: 40 },
				),
				async (cap, steps) => {
					const storage = new MemoryBlobs();
					const store = new BaseStore(storage, cap, 16);
					const seen: string[] = [];
					for (const step of steps) {
						if ("retain" in step) {
							const revision = await retainText(store, step.retain);
							seen.push(step.retain);
							expect(store.has(revision)).toBe(true);
						} else if (seen.length > 0) {
							const text = seen[step.get % seen.length]!;
							const got = await store.get(revisionOf(text));
							expect(got === null || got === text).toBe(true);
						}
						const { entries } = store.toSnapshot();
						const total = entries.reduce((sum, [, size]) => sum + size, 0);
						expect(store.stats().bytes).toBe(total);
						expect(store.stats().entries).toBe(entries.length);
						if (entries.length > 1) expect(total).toBeLessThanOrEqual(cap);
						expect(store.stats().cachedBytes).toBeLessThanOrEqual(16);
						// Every indexed base is really in storage once written; nothing else is.
						await store.settle();
						expect([...storage.blobs.keys()].sort()).toEqual(entries.map(([r]) => r).sort());
					}
				},
			),
			{ numRuns: 200 },
		);
	});
});

function gate(): { promise: Promise<void>; open: () => void } {
	let open!: () => void;
	const promise = new Promise<void>((resolve) => (open = resolve));
	return { promise, open };
}

describe("BaseStore background writes", () => {
	it("retain does not wait for the blob write, and settle() does", async () => {
		const storage = new MemoryBlobs();
		const { promise, open } = gate();
		storage.gate = promise;
		const store = new BaseStore(storage, 1000);
		const revision = await retainText(store, "slow disk");
		expect(store.has(revision)).toBe(true);
		expect(storage.blobs.has(revision)).toBe(false);
		let settled = false;
		const settling = store.settle().then(() => (settled = true));
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(settled).toBe(false);
		open();
		await settling;
		expect(storage.blobs.get(revision)).toBe("slow disk");
	});

	it("a read of an uncached base waits for its in-flight write instead of reporting it missing", async () => {
		const storage = new MemoryBlobs();
		const { promise, open } = gate();
		storage.gate = promise;
		const store = new BaseStore(storage, 1000, 0);
		const revision = await retainText(store, "not cached");
		expect(store.stats().cachedBytes).toBe(0);
		const read = store.get(revision);
		open();
		expect(await read).toBe("not cached");
		expect(store.has(revision)).toBe(true);
	});

	it("keeps serving a base from memory when its blob cannot be written", async () => {
		const storage = new MemoryBlobs();
		storage.failWrites = true;
		const store = new BaseStore(storage, 1000);
		const revision = await retainText(store, "memory only");
		await store.settle();
		expect(store.has(revision)).toBe(true);
		expect(await store.get(revision)).toBe("memory only");
	});

	it("treats a storage that throws before it starts writing like one that fails (retain itself never throws)", async () => {
		const storage = new MemoryBlobs();
		storage.write = () => {
			throw new Error("not even started");
		};
		const store = new BaseStore(storage, 1000, 0);
		const revision = revisionOf("lost too");
		await expect(store.retain(revision, "lost too")).resolves.toBeUndefined();
		await store.settle();
		expect(store.has(revision)).toBe(false);
	});

	it("forgets an uncached base whose blob cannot be written", async () => {
		const storage = new MemoryBlobs();
		storage.failWrites = true;
		const store = new BaseStore(storage, 1000, 0);
		const revision = await retainText(store, "lost");
		await store.settle();
		expect(store.has(revision)).toBe(false);
		expect(store.stats()).toMatchObject({ entries: 0, bytes: 0 });
		expect(await store.get(revision)).toBeNull();
	});

	it("an evicted base whose write was still in flight leaves no blob behind", async () => {
		const storage = new MemoryBlobs();
		const { promise, open } = gate();
		storage.gate = promise;
		const store = new BaseStore(storage, 6);
		const first = await retainText(store, "aaaa");
		const second = retainText(store, "bbbb");
		open();
		await second;
		await store.settle();
		expect(store.has(first)).toBe(false);
		expect(storage.blobs.has(first)).toBe(false);
		expect(storage.blobs.has(revisionOf("bbbb"))).toBe(true);
	});
});

describe("BaseStore missing blobs", () => {
	it("drops a damaged blob (content that does not hash to its revision) rather than serving it", async () => {
		const storage = new MemoryBlobs();
		const writer = new BaseStore(storage, 100);
		const revision = await retainText(writer, "the real base\n");
		await writer.settle();
		storage.blobs.set(revision, "the real ba");
		const store = new BaseStore(storage, 100);
		store.load(writer.toSnapshot());
		expect(await store.get(revision)).toBeNull();
		expect(store.has(revision)).toBe(false);
		expect(storage.blobs.has(revision)).toBe(false);
	});

	it("treats a storage read error like a missing blob", async () => {
		const storage = new MemoryBlobs();
		const writer = new BaseStore(storage, 100);
		const revision = await retainText(writer, "x");
		const store = new BaseStore(
			{ read: () => Promise.reject(new Error("EIO")), write: async () => undefined, remove: async () => undefined },
			100,
		);
		store.load(writer.toSnapshot());
		expect(await store.get(revision)).toBeNull();
		expect(store.has(revision)).toBe(false);
	});

	it("answers null and forgets a base whose blob disappeared", async () => {
		const storage = new MemoryBlobs();
		const writer = new BaseStore(storage, 100);
		const revision = await retainText(writer, "gone soon");
		const store = new BaseStore(storage, 100);
		store.load(writer.toSnapshot());
		await writer.settle();
		storage.blobs.delete(revision);
		expect(await store.get(revision)).toBeNull();
		expect(store.has(revision)).toBe(false);
		expect(store.stats()).toMatchObject({ entries: 0, bytes: 0 });
	});
});

describe("BaseStore snapshots", () => {
	it("snapshots entries least recently used first, and load restores them", async () => {
		const storage = new MemoryBlobs();
		const store = new BaseStore(storage, 100);
		const a = await retainText(store, "aa");
		const b = await retainText(store, "bbb");
		await store.get(a);
		expect(store.toSnapshot()).toEqual({
			entries: [
				[b, 3],
				[a, 2],
			],
		});

		const restored = new BaseStore(storage, 100);
		restored.load(JSON.parse(JSON.stringify(store.toSnapshot())));
		expect(restored.toSnapshot()).toEqual(store.toSnapshot());
		expect(restored.stats()).toMatchObject({ entries: 2, bytes: 5 });
		expect(await restored.get(b)).toBe("bbb");
	});

	it("load skips malformed entries and ignores garbage snapshots", () => {
		const store = new BaseStore(new MemoryBlobs(), 100);
		for (const garbage of [undefined, null, 3, "x", {}, { entries: "no" }]) store.load(garbage);
		expect(store.stats()).toMatchObject({ entries: 0, bytes: 0 });
		store.load({ entries: [null, ["a"], [1, 2], ["b", "3"], "c", ["ok", 4]] });
		expect(store.toSnapshot()).toEqual({ entries: [["ok", 4]] });
		expect(store.stats().bytes).toBe(4);
	});

	it("load does not double-count a revision it already has", async () => {
		const store = new BaseStore(new MemoryBlobs(), 100);
		const a = await retainText(store, "aaaa");
		store.load({ entries: [[a, 4]] });
		expect(store.stats()).toMatchObject({ entries: 1, bytes: 4 });
	});
});

describe("BaseStore.takeIndexChanges", () => {
	it("lists the index's changes in order: added or used again (with size), forgotten", async () => {
		const store = new BaseStore(new MemoryBlobs(), 8);
		const a = await retainText(store, "aaaa");
		const b = await retainText(store, "bbbb");
		await store.get(a);
		const c = await retainText(store, "cc");
		expect(store.takeIndexChanges()).toEqual([[a, 4], [b, 4], [a, 4], [c, 2], b]);
		expect(store.takeIndexChanges()).toEqual([]);
		// Loading a saved index is no change.
		store.load({ entries: [["x", 1]] });
		expect(store.takeIndexChanges()).toEqual([]);
	});

	it("drops a list too long to keep, and says so (the index is then saved whole)", async () => {
		const store = new BaseStore(new MemoryBlobs(), 1e9);
		const a = await retainText(store, "aaaa");
		const b = await retainText(store, "bbbb");
		for (let i = 0; i < 100_000; i++) await store.get(i % 2 ? a : b);
		expect(store.takeIndexChanges()).toBeNull();
		await store.get(a);
		expect(store.takeIndexChanges()).toEqual([[a, 4]]);
	});
});
