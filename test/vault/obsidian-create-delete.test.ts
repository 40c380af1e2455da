/**
 * Creating and deleting notes on the strict simulation of Obsidian: the file index is case-sensitive and lags behind
 * the disk, the disk may be case-insensitive, and "Deleted files" may be set to delete permanently. A create must
 * never overwrite a file Obsidian has not indexed (409, never a 500); a delete must be checked right before it
 * happens and must always be recoverable.
 */
import { existsSync } from "fs";
import { readdir, readFile } from "fs/promises";
import { join } from "path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startObsidian, type ObsidianHarness } from "../helpers/obsidian-harness";

let h: ObsidianHarness;
afterEach(async () => {
	vi.restoreAllMocks();
	await h.close();
	expect(h.errors).toEqual([]);
});

const file = (path: string) => readFile(join(h.dir, path), "utf8").catch(() => null);

describe("creating a note", () => {
	it("refuses (409 name-clash) a name that differs only in case from a note on a case-insensitive disk", async () => {
		h = await startObsidian({}, undefined, { app: { caseInsensitive: true } });
		h.app.outside.write("Plan.md", "the person's plan\n");
		await h.app.clock.runAll();
		const put = await h.api("/vault/plan.md", { method: "PUT", body: "the agent's plan\n" });
		expect(put.status, put.text).toBe(409);
		expect(put.json()).toMatchObject({ type: "/problems/name-clash" });
		expect(await file("Plan.md")).toBe("the person's plan\n");
	});

	it("refuses (409 name-clash) a folder name that differs only in case from a folder on a case-insensitive disk", async () => {
		h = await startObsidian({}, undefined, { app: { caseInsensitive: true } });
		h.app.outside.write("Projects/Plan.md", "the person's plan\n");
		await h.app.clock.runAll();
		const put = await h.api("/vault/projects/Idea.md", { method: "PUT", body: "the agent's idea\n" });
		expect(put.status, put.text).toBe(409);
		expect(put.json()).toMatchObject({ type: "/problems/name-clash" });
		expect(existsSync(join(h.dir, "projects"))).toBe(false);
	});

	it("refuses (409 note-not-ready, Retry-After) a file another program just created that Obsidian has not indexed", async () => {
		h = await startObsidian();
		h.app.outside.write("New.md", "just synced\n");
		const put = await h.api("/vault/New.md", { method: "PUT", body: "the agent's\n" });
		expect(put.status, put.text).toBe(409);
		expect(put.json()).toMatchObject({ type: "/problems/note-not-ready" });
		expect(put.headers["retry-after"]).toBe("1");
		expect(await file("New.md")).toBe("just synced\n");
		// Once Obsidian has it, the usual rules apply: the agent must read it first.
		await h.app.clock.runAll();
		expect((await h.api("/vault/New.md", { method: "PUT", body: "the agent's\n" })).status).toBe(428);
	});

	it("decides again when Obsidian's own create finds the name taken, never answering 500", async () => {
		h = await startObsidian();
		const create = h.app.vault.create.bind(h.app.vault);
		vi.spyOn(h.app.vault, "create").mockImplementationOnce(async (path: string) => {
			// The person creates the note in Obsidian between the plugin's check and its create.
			await create(path, "the person's new note\n");
			throw new Error("File already exists.");
		});
		const put = await h.api("/vault/Race.md", { method: "PUT", body: "the agent's\n" });
		expect(put.status, put.text).toBe(428);
		expect(await file("Race.md")).toBe("the person's new note\n");
	});
});

describe("a note another program removed, before Obsidian noticed", () => {
	it("is not found on read, and a write or delete is refused for a retry (409 note-not-ready), never a 500", async () => {
		h = await startObsidian();
		h.app.outside.write("Note.md", "keep me\n");
		await h.app.clock.runAll();
		const etag = (await h.api("/vault/Note.md")).headers.etag as string;
		h.app.outside.remove("Note.md");
		// Obsidian's index still lists the note; the disk no longer has it.
		expect(h.app.vault.getFileByPath("Note.md")).not.toBeNull();
		expect((await h.api("/vault/Note.md")).status).toBe(404);
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "the agent's text\n",
			headers: { "If-Match": etag },
		});
		expect(put.status, put.text).toBe(409);
		expect(put.json<{ type: string }>().type).toBe("/problems/note-not-ready");
		expect(put.headers["retry-after"]).toBe("1");
		const del = await h.api("/vault/Note.md", { method: "DELETE", headers: { "If-Match": etag } });
		expect(del.status, del.text).toBe(409);
		// Once Obsidian has noticed, the note is simply gone.
		await h.app.clock.runAll();
		await h.guard.tracker.flush();
		expect((await h.api("/vault/Note.md")).status).toBe(404);
		expect(await file("Note.md")).toBeNull();
	});
});

describe("deleting a note", () => {
	async function noteRead(): Promise<string> {
		h = await startObsidian();
		h.app.outside.write("Note.md", "keep me\n");
		await h.app.clock.runAll();
		return (await h.api("/vault/Note.md")).headers.etag as string;
	}

	it.each(["local", "system", "none"] as const)(
		'is always recoverable, with "Deleted files" set to %s',
		async (option) => {
			const etag = await noteRead();
			h.app.vault.setConfig("trashOption", option);
			const del = await h.api("/vault/Note.md", { method: "DELETE", headers: { "If-Match": etag } });
			expect(del.status, del.text).toBe(204);
			expect(existsSync(join(h.dir, "Note.md"))).toBe(false);
			expect((await h.api("/vault/Note.md")).status).toBe(404);
			const inVaultTrash = existsSync(join(h.dir, ".trash")) ? await readdir(join(h.dir, ".trash")) : [];
			const inSystemTrash = existsSync(join(h.dir, "..", `${h.dir.split("/").pop()}.system-trash`))
				? await readdir(join(h.dir, "..", `${h.dir.split("/").pop()}.system-trash`))
				: [];
			expect([...inVaultTrash, ...inSystemTrash]).toContain("Note.md");
		},
	);

	it("is checked again right before the note is trashed: a save landing after the check is not trashed unseen", async () => {
		const etag = await noteRead();
		const process = h.app.vault.process.bind(h.app.vault);
		vi.spyOn(h.app.vault, "process").mockImplementationOnce(async (note, fn) => {
			const result = await process(note, fn);
			// An autosave (or a sync) lands right after the check passed.
			await h.app.vault.modify(note, "keep me\nand what the person saved\n");
			return result;
		});
		const del = await h.api("/vault/Note.md", { method: "DELETE", headers: { "If-Match": etag } });
		expect(del.status, del.text).toBe(412);
		expect(await file("Note.md")).toBe("keep me\nand what the person saved\n");
	});

	it('with "Deleted files" set to delete permanently, keeps in .trash what the note held when it went: a sync landing meanwhile is not lost', async () => {
		const etag = await noteRead();
		h.app.vault.setConfig("trashOption", "none");
		// A sync lands while the delete is under way, after the check passed: whatever the delete asks of the vault or the
		// disk, the note changes right after (a new line each time), so the last version is one the delete did not look at.
		let landed = 0;
		for (const step of ["exists", "mkdir", "copy", "rename"] as const) {
			const original = h.app.vault.adapter[step].bind(h.app.vault.adapter) as (...args: unknown[]) => Promise<unknown>;
			vi.spyOn(h.app.vault.adapter, step).mockImplementation(async (...args: unknown[]) => {
				const result = await original(...args);
				if (existsSync(join(h.dir, "Note.md"))) h.app.outside.write("Note.md", `keep me\nsync ${++landed}\n`);
				return result as never;
			});
		}
		const getConfig = h.app.vault.getConfig.bind(h.app.vault);
		vi.spyOn(h.app.vault, "getConfig").mockImplementation((key: string) => {
			h.app.outside.write("Note.md", `keep me\nsync ${++landed}\n`);
			return getConfig(key);
		});
		const del = await h.api("/vault/Note.md", { method: "DELETE", headers: { "If-Match": etag } });
		expect(del.status, del.text).toBe(204);
		const trashed = await readdir(join(h.dir, ".trash"));
		const kept = await Promise.all(trashed.map((name) => file(`.trash/${name}`)));
		expect(landed).toBeGreaterThan(0);
		expect(kept).toContain(`keep me\nsync ${landed}\n`);
	});

	it('of a note open in an editor, with "Deleted files" set to delete permanently, is gone at once for reads and writes', async () => {
		const etag = await noteRead();
		h.app.vault.setConfig("trashOption", "none");
		h.app.openEditor("Note.md");
		const del = await h.api("/vault/Note.md", { method: "DELETE", headers: { "If-Match": etag } });
		expect(del.status, del.text).toBe(204);
		// Obsidian has not noticed the move to .trash yet: its editor still shows the note.
		expect((await h.api("/vault/Note.md")).status).toBe(404);
		const put = await h.api("/vault/Note.md", { method: "PUT", body: "again\n", headers: { "If-Match": etag } });
		expect(put.status, put.text).toBe(409);
		expect(await file("Note.md")).toBeNull();
	});

	it("of a note open in an editor saves the person's typing first, so it goes to the trash with the note", async () => {
		await noteRead();
		const view = h.app.openEditor("Note.md");
		view.type("typed ", 0);
		const etag = (await h.api("/vault/Note.md")).headers.etag as string;
		const del = await h.api("/vault/Note.md", { method: "DELETE", headers: { "If-Match": etag } });
		expect(del.status, del.text).toBe(204);
		expect(await readFile(join(h.dir, ".trash", "Note.md"), "utf8")).toBe("typed keep me\n");
	});
});
