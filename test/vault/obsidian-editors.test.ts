/**
 * Agent writes to notes the person has open, on the strict simulation of Obsidian (see test/README.md): an editor's
 * buffer is not the file, and its 2-second autosave writes whatever it holds. A write the agent was told succeeded
 * must never be undone by that autosave, typing must never be overwritten, and editors the plugin cannot see into
 * (a canvas card, a popover) make it refuse rather than risk the person's text.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MarkdownView } from "../obsidian-stub";
import { revisionOf } from "../../src/core/revision";
import { startObsidian, typeForSixSeconds, type ObsidianHarness } from "../helpers/obsidian-harness";
import { writeVaultFile } from "../helpers/vault-files";

let h: ObsidianHarness;
afterEach(async () => {
	vi.restoreAllMocks();
	await h.close();
	expect(h.errors).toEqual([]);
});

async function start(note = "line one\nline two\n"): Promise<MarkdownView> {
	h = await startObsidian();
	await writeVaultFile(h.dir, "Note.md", note);
	h.app.outside.write("Note.md", note);
	await h.app.clock.runAll();
	return h.app.openEditor("Note.md");
}

const disk = () => readFile(join(h.dir, "Note.md"), "utf8");
const etagOf = async () => (await h.api("/vault/Note.md")).headers.etag as string;

describe("an agent write to a note open in an editor", () => {
	it("is checked against what the editor holds, unsaved typing included", async () => {
		const view = await start();
		const etag = await etagOf();
		view.type("typed ", 0);
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "line one\nby the agent\n",
			headers: { "If-Match": etag },
		});
		expect(put.status).toBe(412);
		expect(view.editor.getValue()).toBe("typed line one\nline two\n");
	});

	it("goes into the editor as line changes, keeps the cursor, and is not undone by the autosave", async () => {
		const view = await start("line one\nline two\nline three\n");
		view.type("typed ", 0);
		// The agent reads what the editor holds (its typing included), then changes only the last line.
		const read = await h.api("/vault/Note.md");
		expect(read.text).toBe("typed line one\nline two\nline three\n");
		view.editor.setCursor({ line: 0, ch: 3 });
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "typed line one\nline two\nline three by the agent\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(put.status, put.text).toBe(204);
		expect(view.editor.getValue()).toBe("typed line one\nline two\nline three by the agent\n");
		expect(view.editor.getCursor()).toEqual({ line: 0, ch: 3 });
		expect(await disk()).toBe("typed line one\nline two\nline three by the agent\n");
		// The person goes on typing; the autosave writes the agent's text and theirs.
		view.type("more ", 0);
		await h.app.clock.advance(2_000);
		expect(await disk()).toBe("more typed line one\nline two\nline three by the agent\n");
	});

	it("is never overwritten by typing that lands while it is being written", async () => {
		const view = await start();
		const etag = await etagOf();
		// The person types the moment the plugin starts writing the note (before the file write lands).
		const modify = h.app.vault.modify.bind(h.app.vault);
		let typed = false;
		vi.spyOn(h.app.vault, "modify").mockImplementation(async (file, text) => {
			if (!typed) {
				typed = true;
				view.type("!", view.editor.getValue().length);
			}
			await modify(file, text);
		});
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "line one\nline two\nby the agent\n",
			headers: { "If-Match": etag },
		});
		expect(put.status).toBe(204);
		await h.app.clock.runAll();
		await h.guard.tracker.flush();
		// The agent's text is in the note, and so is the keystroke: neither overwrote the other.
		expect(await disk()).toContain("by the agent\n");
		expect(await disk()).toContain("!");
	});

	it("goes into the editor for PATCH and append too", async () => {
		const view = await start("# Plan\n\n## Next\n- one\n");
		view.type("typed ", "# Plan\n\n## Next\n- ".length);
		const read = await h.api("/vault/Note.md");
		const patch = await h.api("/vault/Note.md", {
			method: "PATCH",
			body: "- two\n",
			headers: {
				"If-Match": read.headers.etag as string,
				"Markdown-Patch-Version": "1",
				Operation: "append",
				"Target-Type": "heading",
				Target: "Plan::Next",
			},
		});
		expect(patch.status, patch.text).toBe(200);
		const post = await h.api("/vault/Note.md", { method: "POST", body: "- appended\n" });
		expect(post.status).toBe(204);
		expect(view.editor.getValue()).toBe("# Plan\n\n## Next\n- typed one\n- two\n- appended\n");
		expect(await disk()).toBe("# Plan\n\n## Next\n- typed one\n- two\n- appended\n");
	});

	it("never saves an editor except right after putting an accepted write into it", async () => {
		const view = await start();
		for (let i = 0; i < 3; i++) {
			const etag = await etagOf();
			view.type(`k${i} `, 0);
			await h.api("/vault/Note.md", { method: "PUT", body: `by the agent ${i}\n`, headers: { "If-Match": etag } });
		}
		await h.guard.tracker.flush();
		await h.app.clock.runAll();
		// Three refused writes (the person typed after each read): the plugin saved nothing; only the autosave wrote.
		expect(view.saves.requested).toBe(0);
		expect(await disk()).toBe("k2 k1 k0 line one\nline two\n");
	});

	it("is refused for a retry, never saved over, when another program changed the file and Obsidian has not noticed", async () => {
		const view = await start();
		const etag = await etagOf();
		// A sync tool writes the file; Obsidian's watcher has not told the (clean) editor yet.
		h.app.outside.write("Note.md", "line one\nline two\nfrom the sync\n");
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "line one\nby the agent\n",
			headers: { "If-Match": etag },
		});
		expect(put.status, put.text).toBe(409);
		expect(put.json()).toMatchObject({ type: "/problems/note-not-ready" });
		expect(put.headers["retry-after"]).toBe("1");
		expect(await disk()).toBe("line one\nline two\nfrom the sync\n");
		// Once Obsidian has noticed, the editor holds the sync's text and the agent's token is simply stale.
		await h.app.clock.runAll();
		expect(view.editor.getValue()).toBe("line one\nline two\nfrom the sync\n");
		const again = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "line one\nby the agent\n",
			headers: { "If-Match": etag },
		});
		expect(again.status, again.text).toBe(412);
		expect(await disk()).toBe("line one\nline two\nfrom the sync\n");
	});

	it("lands in its own note when the editor switches to another note with the same text while the write is prepared", async () => {
		const view = await start();
		await writeVaultFile(h.dir, "Copy.md", "line one\nline two\n");
		h.app.outside.write("Copy.md", "line one\nline two\n");
		await h.app.clock.runAll();
		const etag = await etagOf();
		const getValue = view.editor.getValue.bind(view.editor);
		let switched = false;
		vi.spyOn(view.editor, "getValue").mockImplementation(() => {
			// The person opens Copy.md in this tab right after the write was decided.
			if (!switched) {
				switched = true;
				queueMicrotask(() => view.open(h.app.vault.getFileByPath("Copy.md")!));
			}
			return getValue();
		});
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "line one\nby the agent\n",
			headers: { "If-Match": etag },
		});
		expect(put.status, put.text).toBe(204);
		expect(await disk()).toBe("line one\nby the agent\n");
		expect(await readFile(join(h.dir, "Copy.md"), "utf8")).toBe("line one\nline two\n");
		expect(view.editor.getValue()).toBe("line one\nline two\n");
	});

	it("is refused (412, kept as .bak) while the note is open in an editor the plugin cannot see into", async () => {
		await start();
		h.app.openEmbeddedEditor("Note.md");
		const etag = await etagOf();
		const put = await h.api("/vault/Note.md", { method: "PUT", body: "by the agent\n", headers: { "If-Match": etag } });
		expect(put.status, put.text).toBe(412);
		expect(put.json()).toMatchObject({ type: "/problems/note-in-use" });
		const { backupPath } = put.json<{ backupPath: string }>();
		expect(await readFile(join(h.dir, backupPath), "utf8")).toBe("by the agent\n");
		expect(await disk()).toBe("line one\nline two\n");
	});
});

describe("an agent write to a note shown in a canvas card", () => {
	async function cardOn(note: string) {
		h = await startObsidian();
		await writeVaultFile(h.dir, "Note.md", note);
		h.app.outside.write("Note.md", note);
		await h.app.clock.runAll();
		return h.app.openEmbeddedEditor("Note.md");
	}

	it("is refused (412, kept as .bak) while the card holds unsaved typing, even after the person clicked away", async () => {
		const canvas = await cardOn("line one\nline two\n");
		const etag = await etagOf();
		canvas.type("typed in the card ", 0);
		canvas.blur();
		const put = await h.api("/vault/Note.md", { method: "PUT", body: "by the agent\n", headers: { "If-Match": etag } });
		expect(put.status, put.text).toBe(412);
		expect(put.json()).toMatchObject({ type: "/problems/note-in-use" });
		expect(await readFile(join(h.dir, put.json<{ backupPath: string }>().backupPath), "utf8")).toBe("by the agent\n");
		// The card's autosave lands the person's typing; nothing of the agent's went under it.
		await h.app.clock.advance(2_000);
		expect(await disk()).toBe("typed in the card line one\nline two\n");
	});

	it("no longer blocks writes once the card's typing is saved", async () => {
		const canvas = await cardOn("line one\nline two\n");
		canvas.type("typed ", 0);
		canvas.blur();
		await h.app.clock.runAll();
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "typed line one\nby the agent\n",
			headers: { "If-Match": await etagOf() },
		});
		expect(put.status, put.text).toBe(204);
		expect(await disk()).toBe("typed line one\nby the agent\n");
		expect(canvas.card.editor.getValue()).toBe("typed line one\nby the agent\n");
	});
});

describe("typing in an open note", () => {
	it("adds no writes of the note beyond what autosave does, and keeps only the text the typing ended with", async () => {
		const view = await start();
		await etagOf();
		const basesBefore = h.guard.bases.toSnapshot();
		// Autosave alone writes once, 2 s after the last keystroke.
		const writes = await typeForSixSeconds(h, view);
		expect(writes).toHaveLength(1);
		expect(view.saves).toEqual({ autosave: 1, requested: 0 });
		// The outside-save net keeps the note's text once it has been quiet a while: one base for the burst, no more.
		await h.app.clock.runAll();
		await h.guard.outsideSaves.settle();
		expect(newBases(basesBefore)).toEqual([revisionOf(view.editor.getValue())]);
	});

	it("in three notes at once adds no writes beyond each one's autosave", async () => {
		const first = await start();
		const others = ["Two.md", "Three.md"].map((path) => {
			h.app.outside.write(path, "text\n");
			return path;
		});
		await h.app.clock.runAll();
		const views = [first, ...others.map((path) => h.app.openEditor(path))];
		for (const view of views) await h.api(`/vault/${view.file!.path}`);
		const writesBefore = h.app.vault.writeLog.length;
		const basesBefore = h.guard.bases.toSnapshot();
		// Six seconds of typing, hopping between the notes every 200 ms (each note pauses long enough to autosave now and then).
		for (let i = 0; i < 30; i++) {
			views[i % 3]!.type("x");
			await h.app.clock.advance(200 + (i % 7 === 6 ? 2_000 : 0));
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		await h.app.clock.runAll();
		await h.guard.tracker.flush();
		const writes = h.app.vault.writeLog.slice(writesBefore);
		for (const view of views) {
			expect(view.saves.autosave).toBeGreaterThan(0);
			expect(writes.filter((write) => write.path === view.file!.path)).toHaveLength(view.saves.autosave);
			expect(view.saves.requested).toBe(0);
		}
		await h.guard.outsideSaves.settle();
		// One kept text per note (what its typing ended with), not one per autosave.
		expect(newBases(basesBefore).sort()).toEqual(
			[...new Set(views.map((view) => revisionOf(view.editor.getValue())))].sort(),
		);
	});
});

/** The revisions the base store holds now that it did not hold in `before`. */
function newBases(before: { entries: [string, number][] }): string[] {
	const had = new Set(before.entries.map(([revision]) => revision));
	return h.guard.bases
		.toSnapshot()
		.entries.map(([revision]) => revision)
		.filter((revision) => !had.has(revision));
}
