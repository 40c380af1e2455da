// @vitest-environment happy-dom
/** The modal listing open conflicts, with its resolve, open and dismiss actions. */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { App as ObsidianApp } from "obsidian";
import { App, type Modal } from "../obsidian-stub";
import { type ConflictRecord } from "../../src/core/conflicts";
import { ConflictLog } from "../../src/service/stores/conflict-log";
import { conflictRecord, RECORD_TIME } from "../helpers/conflict-records";
import { ConflictListModal, type ConflictListActions } from "../../src/ui/conflict-list-modal";

const TIME = RECORD_TIME;

const record = conflictRecord;

let dir: string;
let app: App;
let openPath: ReturnType<typeof vi.fn<(path: string) => void>>;
let resolve: ReturnType<typeof vi.fn<(id: string) => void>>;
let dismiss: ReturnType<typeof vi.fn<(id: string) => void>>;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rg-conflict-modal-"));
	app = new App(dir);
	openPath = vi.fn<(path: string) => void>();
	resolve = vi.fn<(id: string) => void>();
	dismiss = vi.fn<(id: string) => void>();
});

afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

function openModal(...records: ConflictRecord[]): { modal: ConflictListModal; log: ConflictLog } {
	const log = new ConflictLog();
	for (const item of records) log.add(item);
	// tsc checks against Obsidian's real types; at run time "obsidian" is the stub (see vitest.config.ts).
	// Dismiss is wired as the plugin wires it (through the resolver): the record becomes dismissed.
	dismiss.mockImplementation((id) => void log.setStatus(id, "dismissed", new Date().toISOString()));
	const actions: ConflictListActions = { openPath, resolve, dismiss };
	const modal = new ConflictListModal(app as unknown as ObsidianApp, log, actions);
	modal.open();
	return { modal, log };
}

/** The stub's record of whether the modal is showing. */
function isOpen(modal: ConflictListModal): boolean {
	return (modal as unknown as Modal).isOpen;
}

function items(modal: ConflictListModal): HTMLElement[] {
	return [...modal.contentEl.querySelectorAll<HTMLElement>("li.revision-guard-conflict")];
}

function itemFor(modal: ConflictListModal, path: string): HTMLElement {
	const found = items(modal).filter(
		(item) => item.querySelector(".revision-guard-conflict-title")?.textContent === path,
	);
	expect(found, `list items for ${path}`).toHaveLength(1);
	return found[0]!;
}

function buttonIn(item: HTMLElement, label: string): HTMLButtonElement {
	const button = [...item.querySelectorAll("button")].find((candidate) => candidate.textContent === label);
	if (!button) throw new Error(`no "${label}" button`);
	return button;
}

function buttonLabels(item: HTMLElement): string[] {
	return [...item.querySelectorAll("button")].map((button) => button.textContent ?? "");
}

describe("the conflict list", () => {
	it("is titled and lists only open conflicts, newest first", () => {
		const { modal } = openModal(
			record("first"),
			record("dismissed", { status: "dismissed", resolvedAt: TIME }),
			record("resolved", { status: "resolved", resolvedAt: TIME }),
			record("second", { agent: "nightly-job" }),
		);
		expect(modal.titleEl.textContent).toBe("Agent conflicts");
		expect(items(modal).map((item) => item.querySelector(".revision-guard-conflict-title")?.textContent)).toEqual([
			"notes/second.md",
			"notes/first.md",
		]);
		expect(modal.contentEl.textContent).not.toContain("dismissed.md");
		expect(modal.contentEl.textContent).not.toContain("resolved.md");
	});

	it("shows the agent, the time and the reason of each conflict", () => {
		const { modal } = openModal(record("plan", { agent: "claude-code" }));
		const meta = itemFor(modal, "notes/plan.md").querySelector(".revision-guard-conflict-meta")?.textContent;
		expect(meta).toBe(`claude-code · ${new Date(TIME).toLocaleString()} · the agent wrote over an older version`);
	});

	it.each([
		[{ reason: "stale", currentRevision: "current" }, "the agent wrote over an older version"],
		[{ reason: "stale", currentRevision: null }, "the note was gone when the agent wrote"],
		[{ reason: "exists" }, "the agent tried to create a note that exists"],
		[{ reason: "read-expired" }, "the agent's read was too old"],
		[{ reason: "content-loss" }, "the write would have erased most of the note"],
	] as const)("describes %o as %j", (overrides, text) => {
		const { modal } = openModal(record("x", overrides));
		expect(itemFor(modal, "notes/x.md").querySelector(".revision-guard-conflict-meta")?.textContent).toMatch(
			new RegExp(` · ${text}$`),
		);
	});

	it("says there is nothing to see when no conflict is open", () => {
		const { modal } = openModal(record("old", { status: "dismissed", resolvedAt: TIME }));
		expect(items(modal)).toEqual([]);
		expect(modal.contentEl.textContent).toBe(
			"No open conflicts. Every agent write so far was based on the current note.",
		);
	});

	it('closes and asks to resolve that conflict on "Resolve"', () => {
		const { modal, log } = openModal(record("a"), record("b"));
		buttonIn(itemFor(modal, "notes/b.md"), "Resolve").click();
		expect(resolve.mock.calls).toEqual([["b"]]);
		expect(isOpen(modal)).toBe(false);
		expect(openPath).not.toHaveBeenCalled();
		expect(dismiss).not.toHaveBeenCalled();
		expect(log.get("b")!.status).toBe("open");
	});

	it('opens the note and closes on "Open note"', () => {
		const { modal } = openModal(record("a"), record("b"));
		buttonIn(itemFor(modal, "notes/a.md"), "Open note").click();
		expect(openPath.mock.calls).toEqual([["notes/a.md"]]);
		expect(isOpen(modal)).toBe(false);
		expect(modal.contentEl.childElementCount).toBe(0);
	});

	it('opens the .bak and closes on "Open agent\'s version"', () => {
		const { modal } = openModal(record("a"), record("b"));
		buttonIn(itemFor(modal, "notes/b.md"), "Open agent's version").click();
		expect(openPath.mock.calls).toEqual([["notes/b.20261121-101500.bak.md"]]);
		expect(isOpen(modal)).toBe(false);
	});

	it("offers no agent's version when it could not be kept", () => {
		const { modal } = openModal(record("lost", { backupPath: null }), record("kept"));
		expect(buttonLabels(itemFor(modal, "notes/lost.md"))).toEqual(["Resolve", "Open note", "Dismiss"]);
		expect(buttonLabels(itemFor(modal, "notes/kept.md"))).toEqual([
			"Resolve",
			"Open note",
			"Open agent's version",
			"Dismiss",
		]);
	});

	it("dismisses a conflict, keeps the modal open and lists the rest", () => {
		const { modal, log } = openModal(record("a"), record("b"));
		const before = Date.now();
		buttonIn(itemFor(modal, "notes/a.md"), "Dismiss").click();
		expect(dismiss.mock.calls).toEqual([["a"]]);
		expect(resolve).not.toHaveBeenCalled();
		const dismissed = log.get("a")!;
		expect(dismissed.status).toBe("dismissed");
		expect(Date.parse(dismissed.resolvedAt!)).toBeGreaterThanOrEqual(before - 1000);
		expect(log.get("b")!.status).toBe("open");
		expect(isOpen(modal)).toBe(true);
		expect(openPath).not.toHaveBeenCalled();
		expect(items(modal).map((item) => item.querySelector(".revision-guard-conflict-title")?.textContent)).toEqual([
			"notes/b.md",
		]);
	});

	it("shows the empty state once the last conflict is dismissed", () => {
		const { modal, log } = openModal(record("only"));
		buttonIn(itemFor(modal, "notes/only.md"), "Dismiss").click();
		expect(log.openCount()).toBe(0);
		expect(items(modal)).toEqual([]);
		expect(modal.contentEl.textContent).toBe(
			"No open conflicts. Every agent write so far was based on the current note.",
		);
	});

	it("shows conflicts that opened since it was last opened", () => {
		const { modal, log } = openModal();
		modal.close();
		log.add(record("late"));
		modal.open();
		expect(items(modal)).toHaveLength(1);
		expect(itemFor(modal, "notes/late.md")).toBeDefined();
	});
});
