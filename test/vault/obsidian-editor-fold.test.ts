/**
 * Another program saves a note while the person has unsaved typing in it (issue 25), on the strict simulation: the
 * dirty editor keeps its buffer when the file changes under it, and its autosave then writes that buffer over the
 * file. The plugin folds the program's save into the editor through the Editor API (a three-way merge of what the
 * file held before, the editor's text and the program's), so the autosave writes both; when the two overlap, the
 * program's text is kept as a .bak with an `outside-over-typing` conflict, never overwritten unseen.
 */
import { mkdtemp, readdir, readFile, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App, type MarkdownView } from "../obsidian-stub";
import { startObsidian, typeForSixSeconds, type ObsidianHarness } from "../helpers/obsidian-harness";
import { writeVaultFile } from "../helpers/vault-files";
import { revisionOf } from "../../src/core/revision";
import { ObsidianGateway } from "../../src/vault/obsidian-gateway";
import type { OutsideOverTyping } from "../../src/vault/gateway";

let h: ObsidianHarness | null = null;
afterEach(async () => {
	vi.restoreAllMocks();
	if (!h) return;
	await h.close();
	expect(h.errors).toEqual([]);
	h = null;
});

async function start(note: string): Promise<MarkdownView> {
	// Each change noticed once, unless a test notices it again itself.
	h = await startObsidian({}, undefined, { app: { watcher: { duplicateChance: 0 } } });
	await writeVaultFile(h.dir, "Note.md", note);
	h.app.outside.write("Note.md", note);
	await h.app.clock.runAll();
	return h.app.openEditor("Note.md");
}

const disk = () => readFile(join(h!.dir, "Note.md"), "utf8");
const backups = async () => (await readdir(h!.dir)).filter((name) => name.endsWith(".bak.md"));
const fold = () => (h!.guard.gateway as ObsidianGateway).editorFold;

/** The watcher notices the program's save (it waits at most 400 ms), the fold runs; the autosave is still pending. */
async function noticed(): Promise<void> {
	await h!.app.clock.advance(500);
	await fold().settled();
}

/** Runs the simulation until nothing is left to do: the watcher, the autosave, and whatever the plugin does in between. */
async function quiet(): Promise<void> {
	for (let round = 0; round < 3; round++) {
		await h!.app.clock.runAll();
		await fold().settled();
		await h!.guard.tracker.flush();
	}
}

describe("an outside save to a note with unsaved typing", () => {
	it("is folded into the editor, cursor kept, and the autosave writes the program's line and the typing", async () => {
		const view = await start("line one\nline two\nline three\n");
		view.type("typed ", 0);
		// Another program (an agent's file tool) saves the note from what is on disk; the autosave is still pending.
		h!.app.outside.write("Note.md", "line one\nline two\nline three\nby the program\n");
		await noticed();
		expect(view.editor.getValue()).toBe("typed line one\nline two\nline three\nby the program\n");
		expect(view.editor.getCursor()).toEqual({ line: 0, ch: "typed ".length });
		// The person goes on typing where they were; the autosave writes everything.
		view.type("more ");
		await quiet();
		expect(await disk()).toBe("typed more line one\nline two\nline three\nby the program\n");
		expect(view.saves.requested).toBe(0);
		expect(h!.guard.conflicts.list()).toEqual([]);
		expect(await backups()).toEqual([]);
	});

	it("that overlaps the typing is kept as a .bak with a conflict record, and the autosave still writes the person's text", async () => {
		const view = await start("line one\nline two\n");
		view.type("typed ", 0);
		h!.app.outside.write("Note.md", "line one by the program\nline two\n");
		await noticed();
		// Nothing of the program's went into the editor: the person's typing is left exactly as it was.
		expect(view.editor.getValue()).toBe("typed line one\nline two\n");
		const [backup] = await backups();
		expect(backup).toBeDefined();
		expect(await readFile(join(h!.dir, backup!), "utf8")).toBe("line one by the program\nline two\n");
		const [record] = h!.guard.conflicts.list();
		expect(h!.guard.conflicts.list()).toHaveLength(1);
		expect(record).toMatchObject({
			path: "Note.md",
			reason: "outside-over-typing",
			source: "outside",
			agent: "another program",
			backupPath: backup,
			status: "open",
			sentRevision: revisionOf("line one\nline two\n"),
			currentRevision: revisionOf("typed line one\nline two\n"),
			proposedRevision: revisionOf("line one by the program\nline two\n"),
		});
		await quiet();
		expect(await disk()).toBe("typed line one\nline two\n");
		// The merge view has its three sides: the file before the save, the note as the person has it, the program's.
		const sides = await h!.guard.resolver.sides(record!.id);
		expect(sides).toMatchObject({
			base: "line one\nline two\n",
			mine: "typed line one\nline two\n",
			theirs: "line one by the program\nline two\n",
		});
	});

	it("is folded again on what the person typed while the merge was computed", async () => {
		const view = await start("line one\nline two\nline three\n");
		view.type("typed ", 0);
		armBeforeApply(() => view.type("also ", view.editor.getValue().indexOf("line two")));
		h!.app.outside.write("Note.md", "line one\nline two\nline three\nby the program\n");
		await noticed();
		expect(view.editor.getValue()).toBe("typed line one\nalso line two\nline three\nby the program\n");
		await quiet();
		expect(await disk()).toBe("typed line one\nalso line two\nline three\nby the program\n");
		expect(h!.guard.conflicts.list()).toEqual([]);
	});

	it("still reaches the disk when the autosave fires while the merge is computed", async () => {
		const view = await start("line one\nline two\n");
		view.type("typed ", 0);
		// Changes that touch are an overlap (as git merges): the program's line goes below an unchanged one.
		// The autosave writes the person's text over the program's save before the fold is applied.
		armBeforeApply(() => h!.app.clock.advance(2_000));
		h!.app.outside.write("Note.md", "line one\nline two\nby the program\n");
		await noticed();
		expect(view.saves.autosave).toBe(1);
		expect(view.editor.getValue()).toBe("typed line one\nline two\nby the program\n");
		await quiet();
		expect(await disk()).toBe("typed line one\nline two\nby the program\n");
		// The autosave's own save was not taken for another program's (which would have undone the fold or flagged it).
		expect(h!.guard.conflicts.list()).toEqual([]);
		expect(await backups()).toEqual([]);
	});

	it("keeps an agent's write accepted while the merge was computed (its save is not taken for a program's)", async () => {
		const view = await start("line one\nline two\nline three\n");
		view.type("typed ", 0);
		const read = await h!.api("/vault/Note.md");
		armBeforeApply(async () => {
			const put = await h!.api("/vault/Note.md", {
				method: "PUT",
				body: "typed line one\nline two by the agent\nline three\n",
				headers: { "If-Match": read.headers.etag as string },
			});
			expect(put.status, put.text).toBe(204);
		});
		h!.app.outside.write("Note.md", "line one\nline two\nline three\n\nby the program\n");
		await noticed();
		expect(view.editor.getValue()).toBe("typed line one\nline two by the agent\nline three\n\nby the program\n");
		await quiet();
		expect(await disk()).toBe("typed line one\nline two by the agent\nline three\n\nby the program\n");
		expect(h!.guard.conflicts.list()).toEqual([]);
		expect(await backups()).toEqual([]);
	});

	it("is folded each time when a program saves twice", async () => {
		const view = await start("one\ntwo\nthree\n");
		view.type("typed ", "one\n".length);
		h!.app.outside.write("Note.md", "one\ntwo\nthree\nfirst save\n");
		await noticed();
		h!.app.outside.write("Note.md", "zero\none\ntwo\nthree\nfirst save\n");
		await noticed();
		expect(view.editor.getValue()).toBe("zero\none\ntyped two\nthree\nfirst save\n");
		await quiet();
		expect(await disk()).toBe("zero\none\ntyped two\nthree\nfirst save\n");
		expect(h!.guard.conflicts.list()).toEqual([]);
	});

	/** Just before the fold applies its changes (it reads the file once more then), `action` runs. */
	function armBeforeApply(action: () => unknown): void {
		const read = h!.app.vault.read.bind(h!.app.vault);
		let calls = 0;
		vi.spyOn(h!.app.vault, "read").mockImplementation(async (file) => {
			// The first read takes in the program's save; the second is the fold's look just before applying.
			if (file.path === "Note.md" && ++calls === 2) await action();
			return read(file);
		});
	}
});

describe("saves that are not folded or flagged", () => {
	it("the editor's own autosaves while the person types", async () => {
		const view = await start("line one\n");
		const writes = await typeForSixSeconds(h!, view);
		await quiet();
		expect(writes.length).toBeGreaterThan(0);
		expect(view.editor.getValue()).toBe(`${"x".repeat(30)}line one\n`);
		expect(h!.guard.conflicts.list()).toEqual([]);
		expect(await backups()).toEqual([]);
	});

	it("an agent's accepted write through the API, even when the person types just as it is saved", async () => {
		const view = await start("line one\nline two\n");
		view.type("typed ", 0);
		const read = await h!.api("/vault/Note.md");
		// The person types between the plugin's save of the agent's write and Obsidian's report of it.
		const written = h!.app.vault.onFileWritten;
		let typedOnce = false;
		h!.app.vault.onFileWritten = (file) => {
			written(file);
			if (!typedOnce && file.path === "Note.md") {
				typedOnce = true;
				view.type("!", 0);
			}
		};
		const put = await h!.api("/vault/Note.md", {
			method: "PUT",
			body: "typed line one\nline two by the agent\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(put.status, put.text).toBe(204);
		await quiet();
		expect(await disk()).toBe("!typed line one\nline two by the agent\n");
		expect(h!.guard.conflicts.list()).toEqual([]);
		expect(await backups()).toEqual([]);
	});

	it("the same bytes saved again by a sync tool, noticed twice", async () => {
		const view = await start("line one\nline two\n");
		view.type("typed ", 0);
		const changes = view.editor.history.length;
		h!.app.outside.write("Note.md", "line one\nline two\n");
		h!.app.outside.notice("Note.md");
		await noticed();
		expect(view.editor.history.length).toBe(changes);
		await quiet();
		expect(await disk()).toBe("typed line one\nline two\n");
		expect(h!.guard.conflicts.list()).toEqual([]);
	});

	it("a program's save noticed twice is folded once", async () => {
		const view = await start("line one\nline two\n");
		view.type("typed ", 0);
		h!.app.outside.write("Note.md", "line one\nline two\nby the program\n");
		h!.app.outside.notice("Note.md");
		await noticed();
		expect(view.editor.getValue()).toBe("typed line one\nline two\nby the program\n");
		const folds = view.editor.history.length;
		await quiet();
		expect(view.editor.history.length).toBe(folds);
		expect(await disk()).toBe("typed line one\nline two\nby the program\n");
		expect(h!.guard.conflicts.list()).toEqual([]);
	});

	it("a save to a note whose editor has nothing unsaved (Obsidian reloads it)", async () => {
		const view = await start("line one\n");
		h!.app.outside.write("Note.md", "line one by the program\n");
		await quiet();
		expect(view.editor.getValue()).toBe("line one by the program\n");
		expect(view.editor.history).toEqual([]);
		expect(h!.guard.conflicts.list()).toEqual([]);
	});

	it("a save to a note no longer open, which the fold no longer keeps", async () => {
		const view = await start("line one\n");
		view.type("typed ", 0);
		await quiet();
		h!.app.closeView(view);
		expect(fold().notesKept()).toBe(0);
		h!.app.outside.write("Note.md", "by the program\n");
		await quiet();
		expect(await disk()).toBe("by the program\n");
		expect(h!.guard.conflicts.list()).toEqual([]);
	});
});

describe("the fold in Obsidian's layer alone", () => {
	let dir: string;
	let app: App;
	let gateway: ObsidianGateway;
	const kept: OutsideOverTyping[] = [];
	const errors: unknown[] = [];
	let yields = 0;
	const cleanups: (() => void)[] = [];

	afterEach(async () => {
		for (const cleanup of cleanups.splice(0)) cleanup();
		await rm(dir, { recursive: true, force: true });
		kept.length = 0;
		errors.length = 0;
	});

	async function vaultWith(note: string): Promise<void> {
		dir = await mkdtemp(join(tmpdir(), "rg-fold-"));
		app = new App(dir);
		app.outside.write("Note.md", note);
		await app.clock.runAll();
		gateway = new ObsidianGateway(
			app as unknown as ObsidianApp,
			(cleanup) => cleanups.push(cleanup),
			async () => {
				yields++;
				await new Promise((resolve) => setImmediate(resolve));
			},
		);
	}

	const keeper = {
		keep: async (save: OutsideOverTyping) => void kept.push(save),
		onError: (error: unknown) => void errors.push(error),
	};

	it("knows the notes already open when it starts (the plugin starting with a tab open)", async () => {
		await vaultWith("line one\nline two\n");
		const view = app.openEditor("Note.md");
		gateway.foldOutsideSaves(keeper);
		view.type("typed ", 0);
		app.outside.write("Note.md", "line one\nline two\nby the program\n");
		await app.clock.advance(500);
		await gateway.editorFold.settled();
		expect(view.editor.getValue()).toBe("typed line one\nline two\nby the program\n");
		expect(kept).toEqual([]);
	});

	it("merges a big note in slices, giving Obsidian its turns, and keeps the cursor", async () => {
		const lines = Array.from({ length: 60_000 }, (_, i) => `line ${i} of a note far bigger than most\n`).join("");
		await vaultWith(lines);
		const view = app.openEditor("Note.md");
		gateway.foldOutsideSaves(keeper);
		view.type("typed ", 0);
		app.outside.write("Note.md", `${lines}by the program\n`);
		yields = 0;
		await app.clock.advance(500);
		await gateway.editorFold.settled();
		expect(yields).toBeGreaterThan(0);
		expect(view.editor.getValue()).toBe(`typed ${lines}by the program\n`);
		expect(view.editor.getCursor()).toEqual({ line: 0, ch: "typed ".length });
	});

	it("hands an overlapping save to the keeper with the three texts, and reports a keeper's failure", async () => {
		await vaultWith("line one\n");
		const view = app.openEditor("Note.md");
		gateway.foldOutsideSaves({
			keep: async (save) => {
				kept.push(save);
				throw new Error("the disk is full");
			},
			onError: keeper.onError,
		});
		view.type("typed ", 0);
		app.outside.write("Note.md", "line one by the program\n");
		await app.clock.advance(500);
		await gateway.editorFold.settled();
		expect(kept).toEqual([
			{ path: "Note.md", before: "line one\n", typed: "typed line one\n", written: "line one by the program\n" },
		]);
		expect(errors.map((error) => (error as Error).message)).toEqual(["the disk is full"]);
		expect(view.editor.getValue()).toBe("typed line one\n");
	});

	it("stops folding when stopped", async () => {
		await vaultWith("line one\nline two\n");
		const view = app.openEditor("Note.md");
		const stop = gateway.foldOutsideSaves(keeper);
		stop();
		expect(gateway.editorFold.notesKept()).toBe(0);
		view.type("typed ", 0);
		app.outside.write("Note.md", "line one\nline two\nby the program\n");
		await app.clock.advance(500);
		await gateway.editorFold.settled();
		expect(view.editor.getValue()).toBe("typed line one\nline two\n");
		expect(app.vault.listenerCount()).toBe(0);
		expect(app.workspace.listenerCount("file-open") + app.workspace.listenerCount("layout-change")).toBe(0);
	});
});
