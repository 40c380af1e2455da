/**
 * Vault events as Obsidian delivers them, on the strict simulation: a folder rename fires one `rename` per
 * descendant, a rename made by another program arrives late as a delete plus a create, and the guard must follow
 * both without losing a note's history or letting an old token write a note back under its old name.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, describe, expect, it } from "vitest";
import { startObsidian, type ObsidianHarness } from "../helpers/obsidian-harness";

let h: ObsidianHarness;
afterEach(async () => {
	await h.close();
	expect(h.errors).toEqual([]);
});

async function settle(): Promise<void> {
	await h.app.clock.runAll();
	await h.guard.tracker.flush();
}

describe("a folder renamed in Obsidian", () => {
	it("moves the history of every note inside it, however deep", async () => {
		h = await startObsidian();
		h.app.outside.write("Projects/a.md", "a\n");
		h.app.outside.write("Projects/deep/b.md", "b\n");
		await settle();
		await h.api("/vault/Projects/a.md");
		await h.api("/vault/Projects/deep/b.md");
		await settle();
		await h.app.vault.rename(h.app.vault.getFolderByPath("Projects")!, "Archive");
		await settle();
		expect(h.guard.history.entries("Archive/a.md").length).toBeGreaterThan(0);
		expect(h.guard.history.entries("Archive/deep/b.md").length).toBeGreaterThan(0);
		expect(h.guard.history.entries("Projects/a.md")).toHaveLength(0);
		expect(h.guard.history.entries("Projects/deep/b.md")).toHaveLength(0);
	});
});

describe("a note renamed by another program", () => {
	it("is found under its new name, and an old token never writes it back under the old one", async () => {
		h = await startObsidian();
		h.app.outside.write("Note.md", "the note\n");
		await settle();
		const etag = (await h.api("/vault/Note.md")).headers.etag as string;
		h.app.outside.rename("Note.md", "Moved.md");
		await settle();
		expect((await h.api("/vault/Note.md")).status).toBe(404);
		// Tokens are content hashes: the agent's read still names the moved note's content.
		const moved = await h.api("/vault/Moved.md", {
			method: "PUT",
			body: "the note\nedited\n",
			headers: { "If-Match": etag },
		});
		expect(moved.status, moved.text).toBe(204);
		const old = await h.api("/vault/Note.md", {
			method: "PUT",
			body: "the note\nstale copy\n",
			headers: { "If-Match": etag },
		});
		expect(old.status, old.text).toBe(412);
		expect(await readFile(join(h.dir, old.json<{ backupPath: string }>().backupPath), "utf8")).toBe(
			"the note\nstale copy\n",
		);
		expect(await readFile(join(h.dir, "Note.md"), "utf8").catch(() => null)).toBeNull();
	});
});
