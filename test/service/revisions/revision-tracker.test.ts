import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { RECENT_MS } from "../../../src/service/revisions/revision-tracker";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";

async function open(gateway: MemoryGateway, storage = new MemoryStorage(), now = () => 1_000) {
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage,
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now,
		coalesceMs: 5,
		persistDebounceMs: 5,
	});
	guard.tracker.start();
	return guard;
}

describe("RevisionTracker", () => {
	it("turns edits made while it was not running into revisions at start-up", async () => {
		const gateway = new MemoryGateway({ "a.md": "one\n", "b.md": "bee\n", "gone.md": "bye\n" });
		const storage = new MemoryStorage();
		const first = await open(gateway, storage);
		expect(await first.tracker.reconcile()).toEqual({ checked: 3, changed: 0, added: 3, removed: 0 });
		await first.close();

		// "Obsidian is closed": a.md is edited, gone.md deleted, new.md created.
		gateway.notes.set("a.md", "one\ntwo\n");
		gateway.notes.delete("gone.md");
		gateway.notes.set("new.md", "fresh\n");

		const second = await open(gateway, storage);
		const report = await second.tracker.reconcile();
		expect(report).toEqual({ checked: 3, changed: 1, added: 1, removed: 1 });
		expect(second.history.latest("a.md")?.revision).toBe(revisionOf("one\ntwo\n"));
		expect(second.history.entries("a.md")).toHaveLength(2);
		expect(second.history.latest("gone.md")).toBeUndefined();
		// It becomes a merge base only once an agent is served it (no agent can hold a token for it before that).
		expect(second.bases.has(revisionOf("one\ntwo\n"))).toBe(false);
		await second.tracker.served({ path: "a.md", content: "one\ntwo\n" });
		expect(second.bases.has(revisionOf("one\ntwo\n"))).toBe(true);
		await second.close();
	});

	it("finds a note deleted while it was not running even when another note is recorded during the start-up check", async () => {
		const gateway = new MemoryGateway({ "a.md": "one\n", "gone.md": "bye\n" });
		const storage = new MemoryStorage();
		const first = await open(gateway, storage);
		await first.tracker.reconcile();
		await first.close();
		gateway.notes.delete("gone.md");
		gateway.notes.set("new.md", "fresh\n");
		const second = await open(gateway, storage);
		// new.md is recorded (an agent's write, say) while the check runs, before the check gets to it: as many listed
		// notes are then tracked (a.md, new.md) as were tracked before (a.md, gone.md), yet gone.md is gone.
		const read = gateway.read.bind(gateway);
		gateway.read = async (path) => {
			if (path === "a.md") second.tracker.record("new.md", "fresh\n", revisionOf("fresh\n"), { kind: "user" });
			return read(path);
		};
		const report = await second.tracker.reconcile();
		expect(report.removed).toBe(1);
		expect(second.history.latest("gone.md")).toBeUndefined();
		expect(second.history.latest("new.md")?.revision).toBe(revisionOf("fresh\n"));
		await second.close();
	});

	it("does not copy the whole vault into the base store on a first start-up", async () => {
		const gateway = new MemoryGateway({ "a.md": "one\n", "b.md": "two\n" });
		const guard = await open(gateway);
		await guard.tracker.reconcile();
		expect(guard.bases.stats().entries).toBe(0);
		await guard.close();
	});

	it("keeps at hand the text of notes changed within the last day, read at start-up, and not of older ones", async () => {
		const recent = await open(new MemoryGateway({ "a.md": "one\n" }), new MemoryStorage(), () => RECENT_MS - 1);
		await recent.tracker.reconcile();
		await recent.outsideSaves.settle();
		expect(recent.bases.has(revisionOf("one\n"))).toBe(true);
		await recent.close();
		// The memory gateway's notes were changed at time 0: two days later they are not recent.
		const old = await open(new MemoryGateway({ "a.md": "one\n" }), new MemoryStorage(), () => 2 * RECENT_MS);
		await old.tracker.reconcile();
		await old.outsideSaves.settle();
		expect(old.bases.has(revisionOf("one\n"))).toBe(false);
		await old.close();
	});

	it("coalesces a burst of modify events into the final revision", async () => {
		const gateway = new MemoryGateway({ "a.md": "0\n" });
		const guard = await open(gateway);
		await guard.tracker.reconcile();
		for (let i = 1; i <= 50; i++) gateway.externalEdit("a.md", `${i}\n`);
		await guard.tracker.flush();
		const entries = guard.history.entries("a.md");
		expect(entries.map((entry) => entry.revision)).toEqual([revisionOf("0\n"), revisionOf("50\n")]);
		await guard.close();
	});

	it("records nothing for a save that did not change the content", async () => {
		const gateway = new MemoryGateway({ "a.md": "same\n" });
		const guard = await open(gateway);
		await guard.tracker.reconcile();
		gateway.emit({ type: "modify", path: "a.md" });
		await new Promise((resolve) => setTimeout(resolve, 20));
		await guard.tracker.flush();
		expect(guard.history.entries("a.md")).toHaveLength(1);
		await guard.close();
	});

	it("moves history and conflicts with a renamed note", async () => {
		const gateway = new MemoryGateway({ "a.md": "text\n" });
		const guard = await open(gateway);
		await guard.tracker.reconcile();
		gateway.notes.set("b.md", gateway.notes.get("a.md")!);
		gateway.notes.delete("a.md");
		gateway.emit({ type: "rename", path: "b.md", oldPath: "a.md" });
		await guard.tracker.flush();
		expect(guard.history.entries("b.md")).toHaveLength(1);
		expect(guard.history.entries("a.md")).toHaveLength(0);
		await guard.close();
	});

	it("persists history so a restart remembers when a revision was served", async () => {
		const gateway = new MemoryGateway({ "a.md": "text\n" });
		const storage = new MemoryStorage();
		const first = await open(gateway, storage, () => 42);
		const snapshot = (await gateway.read("a.md"))!;
		await first.tracker.served(snapshot);
		await first.close();
		const second = await open(gateway, storage);
		expect(second.history.find("a.md", revisionOf("text\n"))?.servedAt).toBe(42);
		expect(second.bases.has(revisionOf("text\n"))).toBe(true);
		await second.close();
	});

	it("ignores files that are not notes", async () => {
		const gateway = new MemoryGateway({ "a.md": "text\n" });
		const guard = await open(gateway);
		gateway.externalEdit("image.png", "binary");
		gateway.externalEdit(".obsidian/workspace.md", "{}");
		await guard.tracker.flush();
		expect(guard.history.size).toBe(0);
		await guard.close();
	});
});
