/**
 * The saved history's layout (history-file.ts): one JSON document, each note on a line of its own, read one note at
 * a time where the storage can, and whole anywhere else (an older version, the plugin's storage, a damaged file).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nodeTimers } from "../../../src/headless/node-timers";
import { StoredNote } from "../../../src/core/stored-note";
import { historyFileText, readHistoryFileByLine } from "../../../src/service/revisions/history-file";
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
		// A first save (no history.json yet) writes the file whole, whatever changed.
		const persistence = new StatePersistence(
			storage,
			() => state,
			() => ({}),
			nodeTimers,
			() => ({ notes: [], gone: [], bases: [] }),
			(await loadState(storage)).journal,
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

	it("saves a history read from it as it was read, and a note changed since as it is now", async () => {
		const storage = new NodeStateStorage(dir);
		// A deleted note's line is parsed as it is read; it is saved as it was all the same.
		const gone = { ...note("gone.md"), deletedAt: 9 };
		const withDeleted = { ...state, history: { version: 1, notes: [...state.history.notes, gone] } };
		await writeFile(join(dir, "history.json"), historyFileText(withDeleted));
		const loaded = await loadState(storage);
		const history = RevisionHistory.fromSnapshot(loaded.history);
		expect(historyFileText({ history: history.toSnapshot(), bases: loaded.bases })).toBe(historyFileText(withDeleted));
		expect(history.trackedPaths()).toEqual(state.history.notes.map((saved) => saved.path));
		expect(history.identityOf("gone.md")).toBeUndefined();
		expect(history.identityOf("c.md")).toBe("1:2:3:4:x");
		expect(history.identityOf("b/ünïcode ✓.md")).toBe('1:2:3:4:quote " and \n newline');
		history.observe("c.md", "r2", 2, { kind: "user" }, 5);
		const saved = JSON.parse(historyFileText({ history: history.toSnapshot(), bases: loaded.bases })) as typeof state;
		expect(saved.history.notes[2]!.entries.map((entry) => entry.revision)).toEqual(["r-c.md", "r2"]);
		expect(saved.history.notes[2]).not.toHaveProperty("identity");
		expect(saved.history.notes.slice(0, 2)).toEqual(state.history.notes.slice(0, 2));
	});
});
