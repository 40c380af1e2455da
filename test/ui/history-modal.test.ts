// @vitest-environment happy-dom
/**
 * Note history and agent activity in Obsidian (on the simulation, with the real stack): who made each revision,
 * Restore and Revert through the guarded writer as the person, a stale restore refused, and a revert that conflicts
 * opening the revert merge modal.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { AgentActivityModal } from "../../src/ui/activity-modal";
import { NoteHistoryModal } from "../../src/ui/history-modal";
import { RevertMergeModal } from "../../src/ui/revert-merge-modal";
import { GuardUndo } from "../../src/ui/undo-actions";
import { Modal, Notice } from "../obsidian-stub";
import { startObsidian, type ObsidianHarness } from "../helpers/obsidian-harness";

let h: ObsidianHarness;
let undo: GuardUndo;
let questions: string[];

/** GuardUndo as the plugin builds it, with the confirmation answered yes (and recorded). */
class ConfirmingUndo extends GuardUndo {
	override confirm(message: string): Promise<boolean> {
		questions.push(message);
		return Promise.resolve(true);
	}
}

beforeEach(async () => {
	h = await startObsidian();
	questions = [];
	Notice.shown = [];
	undo = new ConfirmingUndo(h.app as unknown as ObsidianApp, h.guard.person, () => undefined);
});

afterEach(async () => {
	await h.close();
});

const LINES = (changes: Record<number, string> = {}) =>
	Array.from({ length: 12 }, (_, i) => changes[i] ?? `line ${i}`).join("\n") + "\n";

async function settle(): Promise<void> {
	await h.app.clock.runAll();
	await h.guard.tracker.flush();
}

/** The person writes the note in Obsidian. */
async function personWrites(path: string, content: string): Promise<void> {
	const file = h.app.vault.getFileByPath(path);
	if (file) await h.app.vault.modify(file, content);
	else await h.app.vault.create(path, content);
	await settle();
}

async function agentWrites(path: string, body: string): Promise<string> {
	const etag = (await h.api(`/vault/${path}`)).headers.etag as string;
	const res = await h.api(`/vault/${path}`, {
		method: "PUT",
		body,
		headers: { "If-Match": etag, "Allow-Empty": "true" },
	});
	expect(res.status, res.text).toBe(204);
	await settle();
	return (res.headers.etag as string).slice(1, -1);
}

async function openHistory(path: string): Promise<NoteHistoryModal> {
	const modal = new NoteHistoryModal(h.app as unknown as ObsidianApp, undo, path);
	modal.open();
	await modal.render();
	return modal;
}

function items(modal: { contentEl: HTMLElement }): HTMLElement[] {
	return [...modal.contentEl.querySelectorAll<HTMLElement>("li.revision-guard-history-item")];
}

function button(item: HTMLElement, text: string): HTMLButtonElement {
	const found = [...item.querySelectorAll("button")].find((candidate) => candidate.textContent === text);
	expect(found, `button "${text}"`).toBeDefined();
	return found!;
}

async function click(element: HTMLElement): Promise<void> {
	element.click();
	for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 1));
}

const note = (path: string) => readFile(join(h.dir, path), "utf8");

describe("the note history modal", () => {
	it("shows who made each revision, and restores the person's text after an agent wiped it", async () => {
		await personWrites("a.md", "what I wrote\n");
		await agentWrites("a.md", "");
		const modal = await openHistory("a.md");
		const titles = items(modal).map((item) => item.querySelector(".revision-guard-history-title")?.textContent ?? "");
		expect(titles[0]).toMatch(/^Test-agent · .*Current$/);
		expect(titles[1]).toMatch(/^You · /);
		await click(button(items(modal)[1]!, "Restore"));
		expect(questions).toEqual([expect.stringContaining("Restore the version of a.md")]);
		expect(await note("a.md")).toBe("what I wrote\n");
		expect(Notice.shown.at(-1)?.message).toContain("Restored the earlier version of a.md");
		// The list was redrawn: the restore is the newest revision, made by the person, and itself undoable.
		expect(items(modal)[0]!.querySelector(".revision-guard-history-title")?.textContent).toMatch(/^You · .*Current$/);
		expect(
			items(modal).some(
				(item) =>
					item.textContent?.includes("Test-agent") && item.querySelector("button")?.textContent === "Show changes",
			),
		).toBe(true);
	});

	it("refuses a restore when the note changed after the list was shown, and writes nothing", async () => {
		await personWrites("a.md", "first\n");
		await agentWrites("a.md", "second\n");
		const modal = await openHistory("a.md");
		await agentWrites("a.md", "third\n");
		await click(
			button(
				items(modal).find((item) => item.dataset.revision !== undefined && item.textContent?.startsWith("You"))!,
				"Restore",
			),
		);
		expect(await note("a.md")).toBe("third\n");
		expect(Notice.shown.at(-1)?.message).toContain("changed since this list was shown");
	});

	it("shows a revision's changes, and marks a revision whose text is no longer kept", async () => {
		await personWrites("a.md", "one\ntwo\n");
		await agentWrites("a.md", "one\n2\n");
		const modal = await openHistory("a.md");
		await click(button(items(modal)[0]!, "Show changes"));
		const diff = items(modal)[0]!.querySelector<HTMLElement>(".revision-guard-history-diff")!;
		expect(diff.hidden).toBe(false);
		expect(diff.textContent).toContain("-two\n+2\n");
		await h.guard.bases.setCap(1);
		await modal.render();
		expect(items(modal)[1]!.textContent).toContain("text no longer kept");
		expect([...items(modal)[1]!.querySelectorAll("button")].map((candidate) => candidate.textContent)).not.toContain(
			"Restore",
		);
	});
});

describe("the agent activity modal", () => {
	it("lists agent writes and reverts one the note still holds, after a confirmation", async () => {
		await personWrites("a.md", "before\n");
		await agentWrites("a.md", "after\n");
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		expect(items(modal).map((item) => item.dataset.path)).toEqual(["a.md"]);
		expect(items(modal)[0]!.textContent).toContain("test-agent");
		await click(button(items(modal)[0]!, "Revert"));
		expect(questions).toEqual([expect.stringContaining("Revert test-agent's write to a.md")]);
		expect(await note("a.md")).toBe("before\n");
		expect(Notice.shown.at(-1)?.message).toBe("Reverted the agent's write to a.md.");
	});

	it("lists an agent's delete and Revert brings the note back with the deleted text", async () => {
		await personWrites("a.md", "what I wrote\n");
		const etag = (await h.api("/vault/a.md")).headers.etag as string;
		expect((await h.api("/vault/a.md", { method: "DELETE", headers: { "If-Match": etag } })).status).toBe(204);
		await settle();
		expect(h.app.vault.getFileByPath("a.md")).toBeNull();
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		expect(items(modal)[0]!.textContent).toContain("deleted the note");
		await click(button(items(modal)[0]!, "Revert"));
		expect(questions).toEqual([expect.stringContaining("created again")]);
		expect(await note("a.md")).toBe("what I wrote\n");
		expect(Notice.shown.at(-1)?.message).toBe("Brought back a.md, which the agent deleted.");
		const history = await openHistory("a.md");
		expect(items(history)[1]!.querySelector(".revision-guard-history-title")?.textContent).toMatch(
			/^Test-agent · .* · deleted the note$/,
		);
	});

	it("does not bring a deleted note back over one the person created since", async () => {
		await personWrites("a.md", "old\n");
		const etag = (await h.api("/vault/a.md")).headers.etag as string;
		expect((await h.api("/vault/a.md", { method: "DELETE", headers: { "If-Match": etag } })).status).toBe(204);
		await settle();
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		await personWrites("a.md", "a new note\n");
		await click(button(items(modal)[0]!, "Revert"));
		expect(await note("a.md")).toBe("a new note\n");
		expect(Notice.shown.at(-1)?.message).toContain("was created after the agent deleted it");
	});

	it("moves a note an agent created to the trash on Revert while it is unchanged", async () => {
		expect(
			(await h.api("/vault/new.md", { method: "PUT", body: "new\n", headers: { "If-None-Match": "*" } })).status,
		).toBe(204);
		await settle();
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		expect(items(modal)[0]!.textContent).toContain("created the note");
		await click(button(items(modal)[0]!, "Revert"));
		expect(questions).toEqual([expect.stringContaining("moved to the trash")]);
		expect(h.app.vault.getFileByPath("new.md")).toBeNull();
		expect(Notice.shown.at(-1)?.message).toBe("Moved new.md, which the agent created, to the trash.");
	});

	it("lists an agent's move and the links it rewrote, and Revert moves the note back and puts the links back", async () => {
		await personWrites("Plan.md", "plan\n");
		await personWrites("Index.md", "See [[Plan]].\n");
		expect((await h.api("/vault/Plan.md")).status).toBe(200);
		expect(
			(await h.api("/vault/Plan.md", { method: "MOVE", headers: { Destination: "Projects/Roadmap.md" } })).status,
		).toBe(204);
		await settle();
		expect(await note("Index.md")).toBe("See [[Roadmap]].\n");
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		const moved = items(modal).find((item) => item.dataset.path === "Projects/Roadmap.md")!;
		expect(moved.textContent).toContain("moved it from Plan.md");
		expect(items(modal).map((item) => item.dataset.path)).toContain("Index.md");
		await click(button(moved, "Revert"));
		expect(questions).toEqual([expect.stringContaining("moved back to Plan.md")]);
		expect(await note("Plan.md")).toBe("plan\n");
		expect(await note("Index.md")).toBe("See [[Plan]].\n");
		expect(h.app.vault.getFileByPath("Projects/Roadmap.md")).toBeNull();
		expect(Notice.shown.at(-1)?.message).toBe("Moved Projects/Roadmap.md back to Plan.md.");
		const history = await openHistory("Plan.md");
		expect(
			items(history).map((item) => item.querySelector(".revision-guard-history-title")?.textContent ?? ""),
		).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^You · .* · moved it from Projects\/Roadmap\.md/),
				expect.stringMatching(/^Test-agent · .* · moved it from Plan\.md/),
			]),
		);
	});

	it("shows one key's writes when the person picks that key", async () => {
		await personWrites("a.md", "a\n");
		await personWrites("b.md", "b\n");
		await agentWrites("a.md", "a by the agent\n");
		h.settings.keys.push({ name: "nightly-job", key: "nightly-key-0123456789abcdef0123456789", created: "2026-01-01" });
		const etag = (
			await h.api("/vault/b.md", { headers: { Authorization: "Bearer nightly-key-0123456789abcdef0123456789" } })
		).headers.etag as string;
		expect(
			(
				await h.api("/vault/b.md", {
					method: "PUT",
					body: "b by the job\n",
					headers: { Authorization: "Bearer nightly-key-0123456789abcdef0123456789", "If-Match": etag },
				})
			).status,
		).toBe(204);
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		expect(
			items(modal)
				.map((item) => item.dataset.path)
				.sort(),
		).toEqual(["a.md", "b.md"]);
		const select = modal.contentEl.querySelector<HTMLSelectElement>("select.revision-guard-activity-filter")!;
		expect([...select.options].map((option) => option.textContent)).toEqual(["All keys", "nightly-job", "test-agent"]);
		select.value = "test-agent";
		select.dispatchEvent(new Event("change"));
		expect(items(modal).map((item) => item.dataset.path)).toEqual(["a.md"]);
	});

	it("takes only the agent's change out when the person edited after it (a clean three-way revert)", async () => {
		await personWrites("a.md", LINES());
		await agentWrites("a.md", LINES({ 1: "agent" }));
		await personWrites("a.md", LINES({ 1: "agent", 10: "mine" }));
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		await click(button(items(modal)[0]!, "Revert"));
		expect(await note("a.md")).toBe(LINES({ 10: "mine" }));
		expect(Notice.shown.at(-1)?.message).toContain("later changes were kept");
	});

	it("opens the revert merge modal when the revert conflicts, and saves the person's merge guarded", async () => {
		await personWrites("a.md", LINES());
		await agentWrites("a.md", LINES({ 1: "agent" }));
		await personWrites("a.md", LINES({ 1: "agent, then edited by me" }));
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		await click(button(items(modal)[0]!, "Revert"));
		const merge = Modal.opened.at(-1);
		expect(merge).toBeInstanceOf(RevertMergeModal);
		expect(await note("a.md")).toBe(LINES({ 1: "agent, then edited by me" }));
		// The person's merge is saved through the guarded writer, against the note the modal merged with.
		await (merge as unknown as { save(text: string): Promise<void> }).save(LINES({ 1: "my choice" }));
		expect(await note("a.md")).toBe(LINES({ 1: "my choice" }));
		const latest = h.guard.history.latest("a.md");
		expect(latest?.source).toEqual({ kind: "user" });
	});

	it("merges the revert again when the note changes before the person's save lands, and writes nothing then", async () => {
		await personWrites("a.md", LINES());
		await agentWrites("a.md", LINES({ 1: "agent" }));
		await personWrites("a.md", LINES({ 1: "agent, then edited by me" }));
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		await click(button(items(modal)[0]!, "Revert"));
		const merge = Modal.opened.at(-1) as unknown as { save(text: string): Promise<void>; isOpen: boolean };
		await personWrites("a.md", LINES({ 1: "agent, then edited by me", 11: "and more" }));
		await merge.save(LINES({ 1: "my choice" }));
		expect(await note("a.md")).toBe(LINES({ 1: "agent, then edited by me", 11: "and more" }));
		expect(merge.isOpen).toBe(true);
		await merge.save(LINES({ 1: "my choice", 11: "and more" }));
		expect(await note("a.md")).toBe(LINES({ 1: "my choice", 11: "and more" }));
	});

	it("keeps an agent write in the activity list, revertible, after the person saved the note more times than history lists", async () => {
		await personWrites("a.md", LINES());
		await agentWrites("a.md", LINES({ 1: "agent" }));
		for (let i = 0; i < 25; i++) await personWrites("a.md", LINES({ 1: "agent", 11: `typing ${i}` }));
		expect(h.guard.activity.list(10)).toMatchObject([{ path: "a.md", revertible: true }]);
		const outcome = await undo.revert(
			"a.md",
			h.guard.activity.list(10)[0]!.revision,
			revisionOf(LINES({ 1: "agent", 11: "typing 24" })),
		);
		expect(outcome).not.toBeNull();
		expect(await note("a.md")).toBe(LINES({ 11: "typing 24" }));
	});

	it("never writes a revert the person did not see when their save is refused, even one that now merges cleanly", async () => {
		await personWrites("a.md", LINES());
		await agentWrites("a.md", LINES({ 1: "agent" }));
		await personWrites("a.md", LINES({ 1: "agent, then edited by me" }));
		const modal = new AgentActivityModal(h.app as unknown as ObsidianApp, undo);
		modal.open();
		await click(button(items(modal)[0]!, "Revert"));
		const merge = Modal.opened.at(-1) as unknown as { save(text: string): Promise<void>; isOpen: boolean };
		// Meanwhile the note goes back to the agent's line, so taking the agent's change out no longer conflicts.
		await personWrites("a.md", LINES({ 1: "agent", 11: "and more" }));
		await merge.save(LINES({ 1: "my choice" }));
		expect(await note("a.md")).toBe(LINES({ 1: "agent", 11: "and more" }));
		expect(merge.isOpen).toBe(true);
		await merge.save(LINES({ 1: "my choice", 11: "and more" }));
		expect(await note("a.md")).toBe(LINES({ 1: "my choice", 11: "and more" }));
	});
});
