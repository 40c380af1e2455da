// @vitest-environment happy-dom
/** The merge modal's life: a load that finishes after the modal closed builds nothing and listens to nothing. */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, describe, expect, it } from "vitest";
import type { ConflictResolver, ConflictSides } from "../../src/service/conflict-resolver";
import { MergeModal } from "../../src/ui/merge-modal";
import { conflictRecord } from "../helpers/conflict-records";
import { App } from "../obsidian-stub";

const dir = mkdtempSync(join(tmpdir(), "rg-merge-modal-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("MergeModal", () => {
	it("stops loading when it was closed first: no view, no vault listener left behind", async () => {
		let answer!: (sides: ConflictSides) => void;
		const resolver = { sides: () => new Promise<ConflictSides>((resolve) => (answer = resolve)) } as unknown as ConflictResolver;
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
