/**
 * The history's journal (history-journal.ts): a save appends only what changed, a restart replays it, and no crash
 * (mid-append, between a fold's two steps, on a disk that fails) loses a save that finished or brings an older one back.
 */
import { readFileSync } from "fs";
import { mkdtemp, readdir, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { historyFileText } from "../../../src/service/revisions/history-file";
import { HISTORY_JOURNAL_FILE } from "../../../src/service/revisions/history-journal";
import { loadState, StatePersistence } from "../../../src/service/revisions/persistence";
import { BaseStore } from "../../../src/service/stores/base-store";
import { RevisionHistory } from "../../../src/service/stores/revision-history";
import type { StateStorage } from "../../../src/vault/gateway";
import { NodeStateStorage } from "../../../src/vault/node-state-storage";
import { failFolderFsync } from "../../helpers/failing-disk";
import { MemoryStorage } from "../../helpers/memory-gateway";
import { seededRandom } from "../../helpers/seeded-random";

const JOURNAL = HISTORY_JOURNAL_FILE;
const noTimers = { schedule: () => 0, cancel: () => undefined };
const blobs = { read: async () => null, write: async () => undefined, remove: async () => undefined };
const agent = { kind: "agent" as const, agent: "a" };

/** One run of the guard's state: its history, its base index and what saves them, as the host assembles them. */
async function open(storage: StateStorage) {
	const loaded = await loadState(storage);
	const history = RevisionHistory.fromSnapshot(loaded.history);
	const bases = new BaseStore(blobs, 1e12);
	bases.load(loaded.bases);
	const persistence = new StatePersistence(
		storage,
		() => ({ history: history.toSnapshot(), bases: bases.toSnapshot() }),
		() => ({}),
		noTimers,
		() => ({ ...history.takeChanges(), bases: bases.takeIndexChanges() }),
		loaded.journal,
		1000,
		loaded.conflicts,
	);
	/** What a restart must find: every note's history (in any order: none is meant), and the base index in its order. */
	const state = () => ({
		notes: [...history.allNotes()]
			.map((note) => JSON.parse(JSON.stringify(note)) as { path: string })
			.sort((a, b) => (a.path < b.path ? -1 : 1)),
		bases: bases.toSnapshot(),
	});
	return { history, bases, persistence, state };
}

/** A vault of `count` notes, saved whole once (as the first save after a start from nothing does). */
async function seeded(storage: StateStorage, count = 50) {
	const run = await open(storage);
	for (let i = 0; i < count; i++) {
		run.history.observe(`n${i}.md`, `r${i}`, 10, { kind: "external" }, 1);
		run.history.setIdentity(`n${i}.md`, `r${i}`, `id-${i}`);
	}
	await run.persistence.save();
	return run;
}

/** A write to one note, as the guarded writer records it: a new revision, its identity, its base. */
async function put(run: Awaited<ReturnType<typeof open>>, path: string, revision: string) {
	const before = run.history.latest(path)?.revision;
	run.history.observe(path, revision, 11, agent, 2);
	if (before) run.history.markReplaced(path, revision, before);
	run.history.setIdentity(path, revision, `id-${revision}`);
	await run.bases.retain(revision, `content of ${revision}`);
}

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-history-journal-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(dir, { recursive: true, force: true });
});

describe("the history's journal", () => {
	it("appends only the notes a save changed, leaves history.json as it was, and a restart finds every save", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage);
		const whole = storage.files.get("history.json")!;
		await put(run, "n3.md", "w1");
		await run.persistence.save();
		await put(run, "n7.md", "w2");
		run.history.rename("n9.md", "moved.md");
		await run.persistence.save();
		expect(storage.files.get("history.json")).toBe(whole);
		const lines = storage.files.get(JOURNAL)!.split("\n").filter(Boolean);
		expect(lines).toHaveLength(2);
		expect((JSON.parse(lines[0]!) as { notes: { path: string }[] }).notes.map((note) => note.path)).toEqual(["n3.md"]);
		expect(JSON.parse(lines[1]!)).toMatchObject({ gone: ["n9.md"] });
		// A save costs what changed: a line of a few hundred bytes, not the whole file again.
		expect(storage.files.get(JOURNAL)!.length).toBeLessThan(whole.length / 4);
		// A crash now (no close): the restart replays the journal.
		const restarted = await open(storage);
		expect(restarted.state()).toEqual(run.state());
		expect(restarted.history.identityOf("n3.md")).toBe("id-w1");
		expect(restarted.history.latest("n9.md")).toBeUndefined();
	});

	it("saves nothing when nothing changed, and folds the journal into history.json at close", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage);
		const whole = storage.files.get("history.json")!;
		const write = vi.spyOn(storage, "write");
		const append = vi.spyOn(storage, "append");
		const historyWrites = () => write.mock.calls.filter(([name]) => name.startsWith("history"));
		await run.persistence.save();
		await run.persistence.flush();
		expect(historyWrites()).toEqual([]);
		expect(append).not.toHaveBeenCalled();
		await put(run, "n1.md", "w1");
		await run.persistence.save();
		await run.persistence.flush();
		expect(storage.files.has(JOURNAL)).toBe(false);
		expect(storage.files.get("history.json")).not.toBe(whole);
		// history.json alone now holds everything: what an older version of the plugin reads.
		expect((await open(storage)).state()).toEqual(run.state());
		// A start and a close that changed nothing leave it untouched.
		write.mockClear();
		const again = await open(storage);
		await again.persistence.flush();
		expect(historyWrites()).toEqual([]);
	});

	it("replays the base index's order: bases added, used again and forgotten", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage);
		await run.bases.retain("b1", "one");
		await run.bases.retain("b2", "two");
		await run.bases.retain("b3", "three");
		await run.persistence.save();
		await run.bases.get("b1");
		// Room for six bytes: the least recently used go first (b2, then b3); b1 was used again.
		await run.bases.setCap("two".length + "one".length);
		await run.persistence.save();
		expect(run.bases.toSnapshot().entries.map(([revision]) => revision)).toEqual(["b1"]);
		expect((await open(storage)).state()).toEqual(run.state());
	});

	it("folds the journal into history.json once it grows past its share, in one atomic write then the journal's removal", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage, 5);
		const writes: string[] = [];
		vi.spyOn(storage, "write").mockImplementation(async (name, content) => {
			writes.push(name);
			storage.files.set(name, content);
		});
		for (let i = 0; i < 400; i++) {
			await put(run, `n${i % 5}.md`, `w${i}-${"x".repeat(200)}`);
			await run.persistence.save();
		}
		expect(writes.filter((name) => name === "history.json").length).toBeGreaterThan(0);
		expect(storage.files.get(JOURNAL)?.length ?? 0).toBeLessThanOrEqual(64 * 1024);
		expect((await open(storage)).state()).toEqual(run.state());
	});

	it("replays every kind of change a note's history takes: a crash after any save finds the history as that save left it", async () => {
		for (const seed of [1, 2, 3, 4, 5]) {
			const random = seededRandom(seed);
			const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
			const storage = new MemoryStorage();
			const run = await seeded(storage, 8);
			const paths = Array.from({ length: 12 }, (_, i) => `n${i}.md`);
			const revisionOf = (path: string) => run.history.latest(path)?.revision ?? "none";
			const changes: (() => unknown)[] = [
				() => put(run, pick(paths), `w${Math.floor(random() * 1e9)}`),
				() => run.history.setIdentity(pick(paths), "", undefined),
				() => {
					const path = pick(paths);
					run.history.setIdentity(path, revisionOf(path), `id-${random()}`);
				},
				() => run.history.recordDeletion(pick(paths), `d${random()}`, agent, 3, "c1"),
				() => run.history.markDeleted(pick(paths), 4),
				() => run.history.markCreated(...((path) => [path, revisionOf(path)] as const)(pick(paths))),
				() => run.history.markServed(...((path) => [path, revisionOf(path), 5] as const)(pick(paths))),
				() => run.history.creditLatest(...((path) => [path, revisionOf(path), agent] as const)(pick(paths))),
				() => run.history.markChange(...((path) => [path, revisionOf(path), "c2"] as const)(pick(paths))),
				() => run.history.rename(pick(paths), pick(paths)),
				() => {
					const from = pick(paths);
					run.history.recordMove(from, pick(paths), { revision: revisionOf(from), size: 1, source: agent, time: 6 });
				},
				() => run.bases.get(`w${Math.floor(random() * 1e9)}`),
			];
			for (let step = 0; step < 200; step++) {
				await pick(changes)();
				if (random() < 0.3) {
					await run.persistence.save();
					expect((await open(storage)).state(), `seed ${seed}, step ${step}`).toEqual(run.state());
				}
			}
		}
	});

	it("ignores a last line cut short by a crash (the save before it stands), and appends nothing after it", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage);
		await put(run, "n2.md", "w1");
		await run.persistence.save();
		const before = run.state();
		await put(run, "n2.md", "w2");
		await put(run, "n4.md", "w3");
		// The crash comes mid-append: part of the line reaches the disk.
		vi.spyOn(storage, "append").mockImplementationOnce(async (name, text) => {
			storage.files.set(name, (storage.files.get(name) ?? "") + text.slice(0, text.length - 40));
			throw new Error("power lost");
		});
		await expect(run.persistence.save()).rejects.toThrow("power lost");
		const restarted = await open(storage);
		expect(restarted.state()).toEqual(before);
		// Never the torn save's identity: the note's file, read again, is hashed again.
		expect(restarted.history.identityOf("n2.md")).toBe("id-w1");
		expect(restarted.history.identityOf("n4.md")).toBe("id-4");
		expect([...storage.files.keys()].some((name) => name.includes("damaged"))).toBe(false);
		// The restarted run does not append after the torn line: its first save folds.
		await put(restarted, "n5.md", "w4");
		const append = vi.spyOn(storage, "append");
		await restarted.persistence.save();
		expect(append).not.toHaveBeenCalled();
		expect(storage.files.has(JOURNAL)).toBe(false);
		expect((await open(storage)).state()).toEqual(restarted.state());
	});

	it("after a failed append, folds at the next save: what the failed one held is saved too", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage);
		await put(run, "n2.md", "w1");
		vi.spyOn(storage, "append").mockRejectedValueOnce(new Error("disk full"));
		await expect(run.persistence.save()).rejects.toThrow("disk full");
		await put(run, "n3.md", "w2");
		await run.persistence.save();
		const restarted = await open(storage);
		expect(restarted.state()).toEqual(run.state());
		expect(restarted.history.identityOf("n2.md")).toBe("id-w1");
	});

	it("loses and brings back nothing when a crash comes between a fold's write and the journal's removal", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage);
		await put(run, "n1.md", "w1");
		await run.persistence.save();
		await put(run, "n1.md", "w2");
		// The fold's write lands; the crash comes before the journal is removed.
		vi.spyOn(storage, "remove").mockRejectedValueOnce(new Error("power lost"));
		await expect(run.persistence.flush()).rejects.toThrow("power lost");
		expect(storage.files.has(JOURNAL)).toBe(true);
		const restarted = await open(storage);
		// The journal's line (w1) is older than history.json (w2): skipped, never replayed over it.
		expect(restarted.history.latest("n1.md")?.revision).toBe("w2");
		expect(restarted.state()).toEqual(run.state());
		// Its lines are folded away before anything is appended after them.
		await put(restarted, "n2.md", "w3");
		await restarted.persistence.save();
		expect(storage.files.has(JOURNAL)).toBe(false);
		expect((await open(storage)).state()).toEqual(restarted.state());
	});

	it("keeps a journal with a damaged line aside as evidence, and replays every whole line around it", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage);
		await put(run, "n1.md", "w1");
		await run.persistence.save();
		await put(run, "n2.md", "w2");
		await run.persistence.save();
		const lines = storage.files.get(JOURNAL)!.split("\n");
		storage.files.set(JOURNAL, [lines[0], "{damaged", lines[1], ""].join("\n"));
		const restarted = await open(storage);
		expect(restarted.state()).toEqual(run.state());
		const kept = [...storage.files.keys()].filter((name) => name.startsWith(`${JOURNAL}.damaged-`));
		expect(kept).toHaveLength(1);
		expect(storage.files.get(kept[0]!)).toContain("{damaged");
	});

	it("does not replay a journal beside a history.json written by a version that knows none (it is newer)", async () => {
		const storage = new MemoryStorage();
		const run = await seeded(storage);
		await put(run, "n1.md", "w1");
		await run.persistence.save();
		// An older version of the plugin starts: it reads history.json only (n1.md as it was before w1: its identity
		// does not match the file, so it reads the note again), and rewrites it whole, without journalSeq.
		const older = JSON.parse(storage.files.get("history.json")!) as { history: unknown; bases: unknown };
		const olderHistory = RevisionHistory.fromSnapshot(older.history);
		expect(olderHistory.identityOf("n1.md")).toBe("id-1");
		olderHistory.observe("n1.md", "w1", 11, { kind: "external" }, 3);
		olderHistory.observe("n6.md", "o1", 11, { kind: "external" }, 3);
		storage.files.set("history.json", historyFileText({ history: olderHistory.toSnapshot(), bases: older.bases }));
		const restarted = await open(storage);
		expect(restarted.history.entries("n1.md").map((entry) => entry.source.kind)).toEqual(["external", "external"]);
		expect(restarted.history.latest("n6.md")?.revision).toBe("o1");
		// Its first save folds, numbered past the leftover lines, which are then gone.
		await put(restarted, "n2.md", "w2");
		await restarted.persistence.save();
		expect(storage.files.has(JOURNAL)).toBe(false);
		expect((await open(storage)).state()).toEqual(restarted.state());
	});

	it("loses no finished save on a disk whose folder fsync fails (headless storage)", async () => {
		const storage = new NodeStateStorage(dir);
		const run = await seeded(storage);
		const disk = failFolderFsync("EIO");
		await put(run, "n1.md", "w1");
		await run.persistence.save().catch(() => undefined);
		await put(run, "n2.md", "w2");
		await run.persistence.save().catch(() => undefined);
		expect(disk.failed()).toBeGreaterThan(0);
		vi.restoreAllMocks();
		await put(run, "n3.md", "w3");
		await run.persistence.save();
		expect((await open(new NodeStateStorage(dir))).state()).toEqual(run.state());
		// history.json is still one JSON document any reader parses.
		expect(() => JSON.parse(readFileSync(join(dir, "history.json"), "utf8")) as unknown).not.toThrow();
		expect((await readdir(dir)).filter((name) => name.includes("damaged"))).toEqual([]);
	});
});
