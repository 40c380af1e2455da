/**
 * The history is written only when its text changed (a start and a close that changed nothing leave the file
 * untouched), but never skipped after a write the storage refused: that write may have left the text in place without
 * making it durable, so the file holding the same text proves nothing.
 */
import { describe, expect, it } from "vitest";
import { StatePersistence } from "../../../src/service/revisions/persistence";
import { MemoryStorage } from "../../helpers/memory-gateway";
import { nodeTimers } from "../../../src/headless/node-timers";

/** Storage whose history writes can be made to fail after the text is in place (as a rename whose fsync failed). */
class FlakyStorage extends MemoryStorage {
	failAfterWrite = false;
	writes = 0;
	override async write(name: string, content: string): Promise<void> {
		await super.write(name, content);
		if (!name.startsWith("history")) return;
		this.writes++;
		if (this.failAfterWrite)
			throw Object.assign(new Error("EIO: fsync of a folder failed"), { code: "EIO", syscall: "fsync" });
	}
}

function persistenceOver(storage: StateStorageLike, history: { notes: unknown[] }): StatePersistence {
	return new StatePersistence(
		storage,
		() => ({ history: { version: 1, notes: history.notes }, bases: undefined }),
		() => ({}),
		nodeTimers,
		1,
	);
}
type StateStorageLike = ConstructorParameters<typeof StatePersistence>[0];

describe("StatePersistence: the history file", () => {
	it("is not written again when its text did not change", async () => {
		const storage = new FlakyStorage();
		const history = { notes: [{ path: "a.md", entries: [] }] };
		const persistence = persistenceOver(storage, history);
		await persistence.flush();
		await persistence.flush();
		expect(storage.writes).toBe(1);
	});

	it("is written again after a write that failed, even when the file already holds the same text", async () => {
		const storage = new FlakyStorage();
		const history = { notes: [{ path: "a.md", entries: [] }] };
		const persistence = persistenceOver(storage, history);
		storage.failAfterWrite = true;
		await expect(persistence.flush()).rejects.toMatchObject({ code: "EIO" });
		// The text is in the file, but the storage said it is not durable: the next save must not take it as done.
		storage.failAfterWrite = false;
		await persistence.flush();
		expect(storage.writes).toBe(2);
		// Once written, a save of the same text is skipped again.
		await persistence.flush();
		expect(storage.writes).toBe(2);
	});
});
