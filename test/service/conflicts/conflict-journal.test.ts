/**
 * Conflict records on storage: each change appended as a line, replayed over the snapshot at load, compacted into
 * the snapshot now and then; over every StateStorage (memory, the headless folder, Obsidian's adapter).
 */
import { mkdtemp, readdir, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { DataAdapter as ObsidianAdapter } from "obsidian";
import { afterEach, describe, expect, it } from "vitest";
import { type ConflictRecord } from "../../../src/core/conflicts";
import { ConflictLog, type ConflictChange } from "../../../src/service/stores/conflict-log";
import { nodeTimers } from "../../../src/headless/node-timers";
import { CONFLICT_LOG_FILE, CONFLICTS_FILE } from "../../../src/service/conflicts/conflict-journal";
import { openRevisionGuard, type RevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import type { StateStorage } from "../../../src/vault/gateway";
import { NodeStateStorage } from "../../../src/vault/node-state-storage";
import { ObsidianStateStorage } from "../../../src/vault/obsidian-state-storage";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";
import { DataAdapter } from "../../obsidian-stub";

/** A place for state, and a way to open a fresh StateStorage on it (a restart, or a crash and a restart). */
interface Place {
	storage(): StateStorage;
	names(): Promise<string[]>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "rg-journal-"));
	cleanups.push(() => rm(dir, { recursive: true, force: true }));
	return dir;
}

const PLACES: Record<string, () => Promise<Place>> = {
	memory: async () => {
		const files = new MemoryStorage().files;
		return {
			storage: () => Object.assign(new MemoryStorage(), { files }),
			names: async () => [...files.keys()],
		};
	},
	"headless folder": async () => {
		const dir = await tempDir();
		return { storage: () => new NodeStateStorage(dir), names: () => readdir(dir).catch(() => []) };
	},
	"obsidian adapter": async () => {
		const dir = await tempDir();
		const folder = ".obsidian/plugins/revision-guard";
		return {
			storage: () => new ObsidianStateStorage(new DataAdapter(dir) as unknown as ObsidianAdapter, folder),
			names: () => readdir(join(dir, folder)).catch(() => []),
		};
	},
};

const NOW = Date.UTC(2026, 10, 21, 10, 15, 0);

async function openGuard(
	storage: StateStorage,
	gateway = new MemoryGateway({ "a.md": "now\n", "b.md": "now\n" }),
): Promise<RevisionGuard> {
	const settings = structuredClone(DEFAULT_SETTINGS);
	return openRevisionGuard({
		gateway,
		storage,
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => NOW,
	});
}

function record(n: number, extra: Partial<ConflictRecord> = {}): ConflictRecord {
	const id = `c-20261121-101500-${String(n).padStart(6, "0")}`;
	return {
		id,
		path: `notes/n${n}.md`,
		reason: "stale",
		sentRevision: "s".repeat(64),
		currentRevision: "c".repeat(64),
		proposedRevision: "p".repeat(64),
		backupPath: `notes/n${n}.20261121-101500.bak.md`,
		agent: "bot",
		time: new Date(NOW).toISOString(),
		status: "open",
		...extra,
	};
}

async function refuse(guard: RevisionGuard, path: string, body: string): Promise<string> {
	const outcome = await guard.writer.write(writeRequest(path, body, { basedOn: "old\n" }));
	if (outcome.kind !== "refused" || !outcome.conflict) throw new Error(`expected a kept refusal, got ${outcome.kind}`);
	return outcome.conflict.id;
}

for (const [name, makePlace] of Object.entries(PLACES)) {
	describe(`conflict records over ${name} storage`, () => {
		it("survive a crash: every change is in the appended log, and a restart replays it", async () => {
			const place = await makePlace();
			const guard = await openGuard(place.storage());
			const first = await refuse(guard, "a.md", "first\n");
			await refuse(guard, "b.md", "second\n");
			guard.resolver.dismiss(first);
			guard.conflicts.rename("b.md", "moved/b.md");
			await guard.persistence.conflictsSaved();
			// Appended, never rewritten whole: there is no snapshot yet.
			expect(await place.names()).toContain(CONFLICT_LOG_FILE);
			expect(await place.names()).not.toContain(CONFLICTS_FILE);
			const before = guard.conflicts.toSnapshot();

			// No close, no flush: as after a crash.
			const after = await openGuard(place.storage());
			expect(after.conflicts.toSnapshot()).toEqual(before);
			expect(after.conflicts.get(first)?.status).toBe("dismissed");
			expect(after.conflicts.list({ path: "moved/b.md" })).toHaveLength(1);
			// The restart folded the log into the snapshot.
			expect(await place.names()).toContain(CONFLICTS_FILE);
			expect(await place.names()).not.toContain(CONFLICT_LOG_FILE);
			expect((await openGuard(place.storage())).conflicts.toSnapshot()).toEqual(before);
		});

		it("skip a last line cut short by a crash, and lose nothing before it", async () => {
			const place = await makePlace();
			const guard = await openGuard(place.storage());
			await refuse(guard, "a.md", "kept\n");
			await guard.persistence.conflictsSaved();
			const before = guard.conflicts.toSnapshot();
			const line = JSON.stringify({ put: record(1) });
			await place.storage().append(CONFLICT_LOG_FILE, line.slice(0, line.length / 2));

			const after = await openGuard(place.storage());
			expect(after.conflicts.toSnapshot()).toEqual(before);
			expect((await place.names()).filter((file) => file.includes("damaged"))).toEqual([]);
			// The next change starts a fresh log: nothing is glued to the cut line.
			await refuse(after, "b.md", "after the crash\n");
			await after.persistence.conflictsSaved();
			expect((await openGuard(place.storage())).conflicts.list()).toHaveLength(2);
		});

		it("keep a damaged line in the middle aside as evidence, and load every line around it", async () => {
			const place = await makePlace();
			const storage = place.storage();
			const log = [JSON.stringify({ put: record(1) }), "{not json", "42", JSON.stringify({ put: record(2) }), ""].join(
				"\n",
			);
			await storage.append(CONFLICT_LOG_FILE, log);

			const guard = await openGuard(place.storage());
			expect(guard.conflicts.list().map((kept) => kept.id)).toEqual([record(2).id, record(1).id]);
			const evidence = (await place.names()).filter((file) => file.startsWith(`${CONFLICT_LOG_FILE}.damaged-`));
			expect(evidence).toHaveLength(1);
			expect(await place.storage().read(evidence[0]!)).toBe(log);
		});

		it("load an older install's conflicts.json unchanged, and leave the file as it was", async () => {
			const place = await makePlace();
			const old = JSON.stringify({
				version: 1,
				records: [record(1), record(2, { status: "resolved", resolvedAt: new Date(NOW).toISOString() })],
			});
			await place.storage().write(CONFLICTS_FILE, old);

			const guard = await openGuard(place.storage());
			expect(guard.conflicts.toSnapshot()).toEqual(JSON.parse(old));
			expect(await place.storage().read(CONFLICTS_FILE)).toBe(old);
			expect(await place.names()).not.toContain(CONFLICT_LOG_FILE);
			const added = await refuse(guard, "a.md", "new\n");
			await guard.persistence.conflictsSaved();
			expect((await openGuard(place.storage())).conflicts.list().map((kept) => kept.id)).toEqual([
				added,
				record(2).id,
				record(1).id,
			]);
		});

		it("compact a long log into the snapshot without losing a record or its order", async () => {
			const place = await makePlace();
			const storage = place.storage();
			let appended = 0;
			const append = storage.append.bind(storage);
			storage.append = (file, text) => ((appended += text.length), append(file, text));
			const guard = await openGuard(storage);
			for (let n = 0; n < 400; n++) {
				guard.conflicts.add(record(n));
				// Many appends of a few lines each, as refusals come.
				if (n % 10 === 0) await guard.persistence.conflictsSaved();
			}
			for (let n = 0; n < 400; n += 3) guard.resolver.dismiss(record(n).id);
			await guard.persistence.conflictsSaved();
			const before = guard.conflicts.toSnapshot();
			// The log was folded into the snapshot along the way: it never grows past the snapshot (or 64 KB).
			const log = (await place.storage().read(CONFLICT_LOG_FILE)) ?? "";
			const snapshot = (await place.storage().read(CONFLICTS_FILE)) ?? "";
			expect(appended).toBeGreaterThan(log.length + 64 * 1024);
			expect(log.length).toBeLessThanOrEqual(Math.max(64 * 1024, snapshot.length));
			expect((await openGuard(place.storage())).conflicts.toSnapshot()).toEqual(before);
		});

		it("fold the log in at shutdown", async () => {
			const place = await makePlace();
			const guard = await openGuard(place.storage());
			await refuse(guard, "a.md", "kept\n");
			const before = guard.conflicts.toSnapshot();
			await guard.close();
			expect(await place.names()).not.toContain(CONFLICT_LOG_FILE);
			// The snapshot also says which logged changes it holds (journalSeq), so none is replayed over it later.
			expect(JSON.parse((await place.storage().read(CONFLICTS_FILE))!)).toEqual({
				...before,
				journalSeq: expect.any(Number),
			});
		});
	});
}

describe("the conflict log's commits", () => {
	it("writes changes made while an append is in flight together, in one append, whole lines in order", async () => {
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const appends: string[] = [];
		const storage = new MemoryStorage();
		const append = storage.append.bind(storage);
		storage.append = async (name, text) => {
			appends.push(text);
			if (appends.length === 1) await held;
			await append(name, text);
		};
		const guard = await openGuard(storage);
		guard.conflicts.add(record(1));
		await new Promise<void>((resolve) => setImmediate(resolve));
		for (let n = 2; n <= 5; n++) guard.conflicts.add(record(n));
		let saved = false;
		const allSaved = guard.persistence.conflictsSaved().then(() => (saved = true));
		await new Promise<void>((resolve) => setImmediate(resolve));
		expect(saved).toBe(false);
		release();
		await allSaved;
		expect(appends).toHaveLength(2);
		expect(
			appends[1]!
				.split("\n")
				.filter((line) => line !== "")
				.map((line) => (JSON.parse(line) as { put: ConflictRecord }).put.id),
		).toEqual([2, 3, 4, 5].map((n) => record(n).id));
		expect(storage.files.get(CONFLICT_LOG_FILE)).toBe(appends.join(""));
	});

	it("covers a failed append with a snapshot before the refusal is answered", async () => {
		const storage = new MemoryStorage();
		storage.append = () => Promise.reject(new Error("disk full"));
		const guard = await openGuard(storage);
		const id = await refuse(guard, "a.md", "kept\n");
		expect(storage.files.get(CONFLICTS_FILE)).toContain(id);
	});

	it("loses and duplicates nothing when a crash comes between the snapshot and the log's removal", async () => {
		const storage = new MemoryStorage();
		const guard = await openGuard(storage);
		await refuse(guard, "a.md", "kept\n");
		guard.conflicts.add(record(1));
		guard.resolver.dismiss(record(1).id);
		await guard.persistence.conflictsSaved();
		const before = guard.conflicts.toSnapshot();
		storage.remove = () => Promise.reject(new Error("crashed here"));
		await expect(guard.persistence.flush()).rejects.toThrow("crashed here");
		expect(storage.files.get(CONFLICT_LOG_FILE)).toBeTruthy();

		const after = await openGuard(Object.assign(new MemoryStorage(), { files: storage.files }));
		expect(after.conflicts.toSnapshot()).toEqual(before);
	});
});

describe("ConflictLog's saved changes", () => {
	it("replayed in order give the log back, trimmed records, renames and status changes included; replayed again they change nothing", () => {
		const log = new ConflictLog(3);
		const changes: ConflictChange[] = [];
		log.onSave((change) => changes.push(JSON.parse(JSON.stringify(change)) as ConflictChange));
		for (let n = 1; n <= 5; n++) log.add(record(n));
		log.setStatus(record(4).id, "dismissed", new Date(NOW).toISOString());
		log.rename(record(5).path, "elsewhere.md");
		log.add(record(6));
		expect(changes.filter((change) => "remove" in change)).not.toHaveLength(0);

		const replayed = ConflictLog.fromSnapshot(null, 3);
		replayed.replay(changes);
		expect(replayed.toSnapshot()).toEqual(log.toSnapshot());
		const again = ConflictLog.fromSnapshot(JSON.parse(JSON.stringify(log.toSnapshot())), 3);
		again.replay(changes);
		expect(again.toSnapshot()).toEqual(log.toSnapshot());
	});
});
