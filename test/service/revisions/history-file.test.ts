/**
 * The saved history's layout (history-file.ts): one JSON document, each note on a line of its own, read one note at
 * a time where the storage can, and whole anywhere else (an older version, the plugin's storage, a damaged file).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nodeTimers } from "../../../src/headless/node-timers";
import { StoredNote } from "../../../src/core/revision-history";
import { historyFileText, readHistoryFileByLine, storedNote } from "../../../src/service/revisions/history-file";
import { loadState, StatePersistence } from "../../../src/service/revisions/persistence";
import { RevisionHistory } from "../../../src/service/stores/revision-history";
import { NodeStateStorage } from "../../../src/vault/node-state-storage";
import { MemoryStorage } from "../../helpers/memory-gateway";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-history-file-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(dir, { recursive: true, force: true });
});

const note = (path: string, text = "x") => ({
	path,
	entries: [{ revision: `r-${path}`, time: 1, size: 1, source: { kind: "external" } }],
	identity: `1:2:3:4:${text}`,
});
const state = {
	history: { version: 1, notes: [note("a.md"), note("b/ünïcode ✓.md", 'quote " and \n newline'), note("c.md")] },
	bases: { entries: [["k", 1]] },
};

/** A loaded history as RevisionHistory holds it once every note is parsed. */
const parsed = (history: unknown) => ({ version: 1, notes: [...RevisionHistory.fromSnapshot(history).allNotes()] });

describe("the saved history's layout", () => {
	it("is the same JSON document, with one note per line", () => {
		const text = historyFileText(state);
		expect(JSON.parse(text)).toEqual(state);
		expect(text.split("\n")).toHaveLength(state.history.notes.length + 2);
		expect(JSON.parse(historyFileText({ history: { version: 1, notes: [] }, bases: undefined }))).toEqual({
			history: { version: 1, notes: [] },
		});
		// Anything else is plain JSON.
		expect(historyFileText({ history: null, bases: undefined })).toBe('{"history":null}');
	});

	it("is read one note at a time on a storage that reads lines, and whole elsewhere, to the same state", async () => {
		const storage = new NodeStateStorage(dir);
		const persistence = new StatePersistence(
			storage,
			() => state,
			() => ({}),
			nodeTimers,
		);
		await persistence.flush();
		const whole = vi.spyOn(storage, "read");
		const loaded = await loadState(storage);
		expect(whole.mock.calls.map(([name]) => name)).not.toContain("history.json");
		// Read by line, each note is kept as its text until it is asked for: parsed, it is the note that was saved.
		const notes = (loaded.history as { notes: unknown[] }).notes;
		expect(notes.every((note) => note instanceof StoredNote)).toBe(true);
		expect({ history: parsed(loaded.history), bases: loaded.bases }).toEqual(state);
		const memory = new MemoryStorage();
		await memory.write("history.json", await readFile(join(dir, "history.json"), "utf8"));
		const fromMemory = await loadState(memory);
		expect({ history: fromMemory.history, bases: fromMemory.bases }).toEqual(state);
	});

	it("reads a file in the former layout (one line) and a damaged one whole: the damaged one is kept as evidence", async () => {
		const storage = new NodeStateStorage(dir);
		await writeFile(join(dir, "history.json"), JSON.stringify(state));
		expect(await readHistoryFileByLine(storage, "history.json")).toBeNull();
		// One line of several megabytes (a large vault's file from an older version) is not read by line either.
		const many = {
			...state,
			history: { version: 1, notes: Array.from({ length: 20_000 }, (_, i) => note(`n${i}.md`)) },
		};
		await writeFile(join(dir, "history.json"), JSON.stringify(many));
		expect(await readHistoryFileByLine(storage, "history.json")).toBeNull();
		expect((await loadState(storage)).history).toEqual(many.history);
		await writeFile(join(dir, "history.json"), JSON.stringify(state));
		const former = await loadState(storage);
		expect({ history: former.history, bases: former.bases }).toEqual(state);
		// A note line cut short (a torn or hand-edited file).
		const lines = historyFileText(state).split("\n");
		lines[2] = lines[2]!.slice(0, 20);
		await writeFile(join(dir, "history.json"), lines.join("\n"));
		expect(await readHistoryFileByLine(storage, "history.json")).toBeNull();
		expect((await loadState(storage)).history).toBeUndefined();
		expect((await readdir(dir)).some((name) => name.startsWith("history.json.damaged-"))).toBe(true);
	});

	it("keeps a note's line as its text when it has the shape this layout writes, with the fields a start-up asks for", () => {
		const line = (value: unknown) => JSON.stringify(value);
		const deleted = { path: 'd/"quoted" \\ é.md', entries: [note("x").entries[0]], deletedAt: 17, identity: "1:2" };
		const stored = storedNote(line(deleted));
		expect(stored).toBeInstanceOf(StoredNote);
		expect({ ...stored }).toEqual({ ...deleted, entries: undefined, json: line(deleted) });
		expect(JSON.parse(stored!.json)).toEqual(deleted);
		// Fields an entry carries under the note's own names are not taken for the note's.
		const entryFields = {
			path: "e.md",
			entries: [{ revision: "r", time: 1, identity: "not the note's", deletedAt: 3 }],
		};
		expect({ ...storedNote(line(entryFields)) }).toMatchObject({
			path: "e.md",
			identity: undefined,
			deletedAt: undefined,
		});
		// Any other shape (another order of fields, a value this layout never writes, damage) is parsed instead.
		for (const other of [
			line({ entries: [], path: "a.md" }),
			line({ path: "a.md", entries: [], identity: "i", deletedAt: 1 }),
			line({ path: "a.md", entries: [{ revision: "r", time: 1, source: { kind: ["agent"] } }] }),
			line({ path: 5, entries: [] }),
			line(note("a.md")).slice(0, -3),
			line(note("a.md")).replace("]", "],"),
			'{"path":"a.md","entries":[{"revision":"r\u0001"}]}',
		])
			expect(storedNote(other)).toBeUndefined();
	});

	it("takes from a stored note exactly what parsing it gives, whatever it holds", () => {
		const text = fc.string({ unit: "binary" });
		const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
		const key = fc.oneof(fc.stringMatching(/^[A-Za-z]{1,9}$/), fc.string());
		const entry = fc.dictionary(key, fc.oneof(scalar, fc.dictionary(key, scalar)));
		const saved = fc.record(
			{ path: text, entries: fc.array(entry, { maxLength: 3 }), deletedAt: fc.integer(), identity: text },
			{ requiredKeys: ["path", "entries"] },
		);
		let kept = 0;
		fc.assert(
			fc.property(saved, (value) => {
				const json = JSON.stringify(value);
				const stored = storedNote(json);
				if (stored === undefined) return;
				kept++;
				const parsedNote = JSON.parse(json) as Record<string, unknown>;
				expect(stored.path).toBe(parsedNote.path);
				expect(stored.identity).toBe(parsedNote.identity);
				expect(stored.deletedAt).toBe(parsedNote.deletedAt);
			}),
			{ numRuns: 2000 },
		);
		expect(kept).toBeGreaterThan(200);
	});

	it("saves a history read from it as it was read, and a note changed since as it is now", async () => {
		const storage = new NodeStateStorage(dir);
		await writeFile(join(dir, "history.json"), historyFileText(state));
		const loaded = await loadState(storage);
		const history = RevisionHistory.fromSnapshot(loaded.history);
		expect(historyFileText({ history: history.toSnapshot(), bases: loaded.bases })).toBe(historyFileText(state));
		expect(history.identityOf("c.md")).toBe("1:2:3:4:x");
		expect(history.identityOf("b/ünïcode ✓.md")).toBe('1:2:3:4:quote " and \n newline');
		history.observe("c.md", "r2", 2, { kind: "user" }, 5);
		const saved = JSON.parse(historyFileText({ history: history.toSnapshot(), bases: loaded.bases })) as typeof state;
		expect(saved.history.notes[2]!.entries.map((entry) => entry.revision)).toEqual(["r-c.md", "r2"]);
		expect(saved.history.notes[2]).not.toHaveProperty("identity");
		expect(saved.history.notes.slice(0, 2)).toEqual(state.history.notes.slice(0, 2));
	});
});
