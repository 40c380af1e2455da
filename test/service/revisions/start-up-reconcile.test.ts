import { describe, expect, it } from "vitest";
import { nodeTimers } from "../../../src/headless/node-timers";
import { reconcileVault, seenOf, type ReconcileContext } from "../../../src/service/revisions/start-up-reconcile";
import { RevisionHistory } from "../../../src/service/stores/revision-history";
import type { ScannedNote, VaultGateway } from "../../../src/vault/gateway";
import { MemoryGateway } from "../../helpers/memory-gateway";

/** A reconcile over `gateway` recording into `history`, logging what it tells the tracker. */
function contextFor(gateway: VaultGateway, history: RevisionHistory, log: string[]): ReconcileContext {
	return {
		gateway,
		history,
		now: () => 1_000,
		timers: nodeTimers,
		isNote: (path: string) => path.endsWith(".md"),
		noteExtensions: () => ["md"],
		onDirty: () => log.push("dirty"),
		observe: (snapshot: ScannedNote) => {
			log.push(`observe ${snapshot.path}`);
			return history.observe(snapshot.path, snapshot.revision, snapshot.stat.size, { kind: "external" }, 1_000);
		},
		endBatch: () => log.push(`end batch (gone.md live: ${history.latest("gone.md") !== undefined})`),
	} as unknown as ReconcileContext;
}

describe("reconcileVault", () => {
	it("ends the batch once every note was looked at, then marks the notes deleted meanwhile", async () => {
		const history = new RevisionHistory();
		history.observe("gone.md", "r-gone", 4, { kind: "external" }, 500);
		const log: string[] = [];
		const report = await reconcileVault(contextFor(new MemoryGateway({ "a.md": "one\n" }), history, log));
		expect(report).toEqual({ checked: 1, changed: 0, added: 1, removed: 1 });
		expect(log).toEqual(["observe a.md", "end batch (gone.md live: true)", "dirty"]);
		expect(history.latest("gone.md")).toBeUndefined();
	});

	it("counts no note it could not read, and still ends the batch", async () => {
		const gateway = new MemoryGateway({ "a.md": "one\n" });
		const read = gateway.read.bind(gateway);
		gateway.read = async (path) => {
			if (path === "a.md") throw new Error("disk gone");
			return read(path);
		};
		const log: string[] = [];
		// A note that cannot be read is not a failed start: it is left for its next event.
		const report = await reconcileVault(contextFor(gateway, new RevisionHistory(), log));
		expect(report).toEqual({ checked: 1, changed: 0, added: 0, removed: 0 });
		expect(log).toEqual(["end batch (gone.md live: false)"]);
	});

	it("hashes a note read the ordinary way once, and hands its text back unchanged", () => {
		const seen = seenOf({ path: "a.md", content: "one\n", stat: { ctime: 1, mtime: 2, size: 4 } });
		expect(seen.text()).toBe("one\n");
		expect(seen.revision).toMatch(/^[A-Za-z0-9_-]{20,}$/);
	});
});
