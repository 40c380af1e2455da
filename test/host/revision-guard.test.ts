/**
 * Opening and closing the guard as the storage's owner: the storage is closed (in Obsidian: handed on to the next
 * plugin instance) once, after the last save, and also when the guard could not open.
 */
import { describe, expect, it } from "vitest";
import { nodeTimers } from "../../src/headless/node-timers";
import { openRevisionGuard } from "../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../src/settings";
import { MemoryGateway, MemoryStorage } from "../helpers/memory-gateway";

/** A MemoryStorage that remembers what it held each time it was closed. */
class ClosingStorage extends MemoryStorage {
	readonly closedWith: string[][] = [];
	async close(): Promise<void> {
		this.closedWith.push([...this.files.keys()].sort());
	}
}

function open(storage: MemoryStorage) {
	const settings = structuredClone(DEFAULT_SETTINGS);
	return openRevisionGuard({
		gateway: new MemoryGateway({ "a.md": "a\n" }),
		storage,
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
	});
}

describe("openRevisionGuard and close", () => {
	it("closes its storage once, after its last save, however often it is closed", async () => {
		const storage = new ClosingStorage();
		const guard = await open(storage);
		// A plugin disabled while it starts is closed by its start-up and by its unload at once.
		await Promise.all([guard.close(), guard.close()]);
		await guard.close();
		expect(storage.closedWith).toEqual([["conflicts.json", "history.json", "proposals.json"]]);
	});

	it("closes its storage when it cannot open, so the next instance is not kept waiting for it", async () => {
		const storage = new ClosingStorage();
		storage.read = () => Promise.reject(new Error("EISDIR: history.json is a folder"));
		await expect(open(storage)).rejects.toThrow(/EISDIR/);
		expect(storage.closedWith).toHaveLength(1);
	});
});
