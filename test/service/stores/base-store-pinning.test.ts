import { describe, expect, it } from "vitest";
import { BaseStore, type BlobStorage } from "../../../src/service/stores/base-store";
import { revisionOf } from "../../../src/core/revision";

class Blobs implements BlobStorage {
	readonly blobs = new Map<string, string>();
	async read(key: string): Promise<string | null> {
		return this.blobs.get(key) ?? null;
	}
	async write(key: string, content: string): Promise<void> {
		this.blobs.set(key, content);
	}
	async remove(key: string): Promise<void> {
		this.blobs.delete(key);
	}
}

const text = (n: number) => `note number ${n}`.padEnd(100, ".");

async function retain(store: BaseStore, n: number): Promise<string> {
	const revision = revisionOf(text(n));
	await store.retain(revision, text(n));
	return revision;
}

describe("BaseStore pinning", () => {
	it("evicts unpinned bases first, least recently used first, whatever their age", async () => {
		const store = new BaseStore(new Blobs(), 300);
		const pinned = await retain(store, 0);
		store.setPinned((revision) => revision === pinned);
		const others = [];
		for (let n = 1; n <= 5; n++) others.push(await retain(store, n));
		expect(store.has(pinned)).toBe(true);
		expect(others.map((revision) => store.has(revision))).toEqual([false, false, false, true, true]);
		expect(await store.get(pinned)).toBe(text(0));
	});

	it("still keeps the cap when pinned bases alone exceed it (pinning changes the order, not the bound)", async () => {
		const store = new BaseStore(new Blobs(), 250);
		store.setPinned(() => true);
		for (let n = 0; n < 5; n++) await retain(store, n);
		expect(store.stats().bytes).toBeLessThanOrEqual(250);
		expect(store.has(revisionOf(text(4)))).toBe(true);
	});

	it("evicts pinned ones again once they are no longer pinned", async () => {
		const store = new BaseStore(new Blobs(), 300);
		let pins = new Set([await retain(store, 0)]);
		store.setPinned((revision) => pins.has(revision));
		for (let n = 1; n <= 3; n++) await retain(store, n);
		expect(store.has(revisionOf(text(0)))).toBe(true);
		pins = new Set();
		await retain(store, 4);
		expect(store.has(revisionOf(text(0)))).toBe(false);
	});
});
