// @vitest-environment happy-dom
/**
 * The merge modal's life: a load that finishes after the modal closed builds nothing and listens to nothing, and an
 * open modal does not make Obsidian save the note while the person types in it.
 */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, describe, expect, it } from "vitest";
import type { ConflictResolver, ConflictSides } from "../../src/service/conflicts/conflict-resolver";
import { MergeModal } from "../../src/ui/merge-modal";
import { conflictRecord } from "../helpers/conflict-records";
import { App } from "../obsidian-stub";
import { startObsidian, typeForSixSeconds } from "../helpers/obsidian-harness";
import { writeVaultFile } from "../helpers/vault-files";

const dir = mkdtempSync(join(tmpdir(), "rg-merge-modal-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("MergeModal", () => {
	it("stops loading when it was closed first: no view, no vault listener left behind", async () => {
		let answer!: (sides: ConflictSides) => void;
		const resolver = {
			sides: () => new Promise<ConflictSides>((resolve) => (answer = resolve)),
		} as unknown as ConflictResolver;
		let listening = 0;
		const onVaultChange = () => {
			listening++;
			return () => listening--;
		};
		const modal = new MergeModal(new App(dir) as unknown as ObsidianApp, { resolver, onVaultChange }, "c-1");
		modal.open();
		modal.close();
		answer({ record: conflictRecord("c-1"), base: "a\n", mine: "b\n", mineRevision: "r", theirs: "c\n" });
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(listening).toBe(0);
		expect(modal.contentEl.childElementCount).toBe(0);
	});
});

describe("MergeModal orientation", () => {
	it("shows when the agent wrote and opens the .bak in a new tab through Obsidian's workspace", async () => {
		const record = conflictRecord("c-2");
		const resolver = {
			sides: () => Promise.resolve({ record, base: "a\n", mine: "b\n", mineRevision: "r", theirs: "c\n" }),
		} as unknown as ConflictResolver;
		const app = new App(dir);
		const opened: unknown[][] = [];
		const openLinkText = app.workspace.openLinkText.bind(app.workspace);
		app.workspace.openLinkText = (...args: Parameters<typeof openLinkText>) => {
			opened.push(args);
			return openLinkText(...args);
		};
		const modal = new MergeModal(
			app as unknown as ObsidianApp,
			{ resolver, onVaultChange: () => () => undefined },
			"c-2",
		);
		modal.open();
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(modal.contentEl.querySelector("time")?.getAttribute("datetime")).toBe(record.time);
		const link = modal.contentEl.querySelector<HTMLButtonElement>(".revision-guard-merge-backup-link");
		link?.click();
		expect(opened).toEqual([[record.backupPath, "", true]]);
		expect(app.workspace.opened).toEqual([record.backupPath]);
		modal.close();
	});

	it("offers no .bak link when none was kept", async () => {
		const record = conflictRecord("c-3", { backupPath: null });
		const resolver = {
			sides: () => Promise.resolve({ record, base: "a\n", mine: "b\n", mineRevision: "r", theirs: "c\n" }),
		} as unknown as ConflictResolver;
		const modal = new MergeModal(
			new App(dir) as unknown as ObsidianApp,
			{ resolver, onVaultChange: () => () => undefined },
			"c-3",
		);
		modal.open();
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(modal.contentEl.querySelector(".revision-guard-merge")).not.toBeNull();
		expect(modal.contentEl.querySelector(".revision-guard-merge-backup-link")).toBeNull();
		modal.close();
	});
});

describe("MergeModal open while the person types in the note", () => {
	it("adds no writes of the note beyond what autosave does", async () => {
		const h = await startObsidian();
		try {
			await writeVaultFile(h.dir, "Note.md", "line one\nline two\n");
			h.app.outside.write("Note.md", "line one\nline two\n");
			await h.app.clock.runAll();
			const view = h.app.openEditor("Note.md");
			const read = await h.api("/vault/Note.md");
			view.type("typed ", 0);
			const put = await h.api("/vault/Note.md", {
				method: "PUT",
				body: "line one\nby the agent\n",
				headers: { "If-Match": read.headers.etag as string },
			});
			expect(put.status).toBe(412);
			const [conflict] = h.guard.conflicts.list({ status: "open" });
			const modal = new MergeModal(
				h.app as unknown as ObsidianApp,
				{ resolver: h.guard.resolver, onVaultChange: (listener) => h.guard.gateway.onChange(listener) },
				conflict!.id,
			);
			modal.open();
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(modal.contentEl.querySelector(".revision-guard-merge")).not.toBeNull();
			// Six seconds of typing with the modal open; autosave alone writes the note once.
			const writes = await typeForSixSeconds(h, view);
			expect(writes).toHaveLength(1);
			expect(view.saves.requested).toBe(0);
			modal.close();
			expect(h.errors).toEqual([]);
		} finally {
			await h.close();
		}
	});
});
