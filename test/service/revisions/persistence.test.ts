/**
 * History saves write nothing when nothing changed (a start and a close that changed nothing leave the files
 * untouched), but never take a write the storage refused as done: that write may have left its text in place without
 * making it durable, so the file holding the same text proves nothing.
 */
import { describe, expect, it } from "vitest";
import { loadState, StatePersistence } from "../../../src/service/revisions/persistence";
import { RevisionHistory } from "../../../src/service/stores/revision-history";
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

/** The guard's history saves over `storage`, as the host assembles them, with one note in the history. */
async function persistenceOver(storage: FlakyStorage): Promise<StatePersistence> {
	const loaded = await loadState(storage);
	const history = RevisionHistory.fromSnapshot(loaded.history);
	history.observe("a.md", "r1", 1, { kind: "external" }, 1);
	return new StatePersistence(
		storage,
		() => ({ history: history.toSnapshot(), bases: undefined }),
		() => ({}),
		nodeTimers,
		() => ({ ...history.takeChanges(), bases: [] }),
		loaded.journal,
		1,
	);
}

describe("StatePersistence: the history file", () => {
	it("is not written again when nothing changed", async () => {
		const storage = new FlakyStorage();
		const persistence = await persistenceOver(storage);
		await persistence.flush();
		await persistence.flush();
		expect(storage.writes).toBe(1);
	});

	it("is written again after a write that failed, even when the file already holds the same text", async () => {
		const storage = new FlakyStorage();
		const persistence = await persistenceOver(storage);
		storage.failAfterWrite = true;
		await expect(persistence.flush()).rejects.toMatchObject({ code: "EIO" });
		// The text is in the file, but the storage said it is not durable: the next save must not take it as done.
		storage.failAfterWrite = false;
		await persistence.flush();
		expect(storage.writes).toBe(2);
		// Once written, a save with nothing changed is skipped again.
		await persistence.flush();
		expect(storage.writes).toBe(2);
	});
});
