// @vitest-environment happy-dom
/** The merge view's DOM logic: counter, buttons, typing, keyboard, save and cancel, collapsing, no base, rebase. */
import { readdirSync, readFileSync } from "fs";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { MARKERS, mergeThreeWay, renderMerge } from "../../../src/core/merge";
import { MergeView, type MergeViewCallbacks, type MergeViewInput } from "../../../src/ui/merge/merge-view";
import { installDomHelpers } from "../../obsidian-stub/dom";

const CLS = "revision-guard-merge";
const BASE = "# Plan\n\nalpha one\nbeta two\ngamma three\n\ndelta\n";
const MINE = "# Plan\n\nalpha ONE\nbeta two\ngamma three\n\ndelta mine\n";
const THEIRS = "# Plan\n\nalpha 1\nbeta two\ngamma three!\n\ndelta\nnew\n";

let container: HTMLElement;
let view: MergeView | null;
let saveMock: Mock<MergeViewCallbacks["onSave"]>;
let cancelMock: Mock<MergeViewCallbacks["onCancel"]>;
let confirmMock: Mock<MergeViewCallbacks["confirm"]>;

beforeEach(() => {
	installDomHelpers();
	container = document.body.createDiv();
	saveMock = vi.fn<MergeViewCallbacks["onSave"]>(() => Promise.resolve());
	cancelMock = vi.fn<MergeViewCallbacks["onCancel"]>();
	confirmMock = vi.fn<MergeViewCallbacks["confirm"]>(() => Promise.resolve(true));
	view = null;
});

afterEach(() => {
	view?.destroy();
	container.remove();
});

function open(overrides: Partial<MergeViewInput> = {}): MergeView {
	view = new MergeView(
		container,
		{ notePath: "Projects/Plan.md", agentName: "claude-code", base: BASE, mine: MINE, theirs: THEIRS, ...overrides },
		{
			onSave: saveMock,
			onCancel: cancelMock,
			confirm: confirmMock,
		},
	);
	return view;
}

function find<T extends HTMLElement = HTMLElement>(selector: string, scope: ParentNode = container): T {
	const element = scope.querySelector<T>(selector);
	if (!element) throw new Error(`Nothing matches ${selector}`);
	return element;
}

function button(text: string, scope: ParentNode = container): HTMLButtonElement {
	// By accessible name: a button showing its shortcut is named by its words alone.
	const match = Array.from(scope.querySelectorAll("button")).find(
		(element) => (element.getAttribute("aria-label") ?? element.textContent) === text,
	);
	if (!match) throw new Error(`No button "${text}"`);
	return match;
}

function conflictRow(number: number): HTMLElement {
	const row = container.querySelectorAll<HTMLElement>(`.${CLS}-row-conflict`)[number - 1];
	if (!row) throw new Error(`No conflict ${number}`);
	return row;
}

function counter(): string {
	return find(`.${CLS}-counter`).textContent ?? "";
}

function type(area: HTMLTextAreaElement, value: string): void {
	area.value = value;
	area.dispatchEvent(new Event("input", { bubbles: true }));
}

function key(target: Element, init: KeyboardEventInit): void {
	target.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("conflicts", () => {
	it("count down as buttons resolve them, in an aria-live counter", () => {
		const merge = open();
		expect(counter()).toBe("2 conflicts · 2 left to decide");
		expect(find(`.${CLS}-counter`).getAttribute("aria-live")).toBe("polite");
		button("Take mine", conflictRow(1)).click();
		expect(counter()).toBe("2 conflicts · 1 left to decide");
		expect(button("Take mine", conflictRow(1)).getAttribute("aria-pressed")).toBe("true");
		expect(find(`.${CLS}-conflict-status`, conflictRow(1)).textContent).toBe("Took mine");
		button("Take the agent's", conflictRow(2)).click();
		expect(counter()).toBe("2 conflicts · all decided");
		expect(merge.unresolvedCount()).toBe(0);
		expect(merge.resultText()).toBe("# Plan\n\nalpha ONE\nbeta two\ngamma three!\n\ndelta\nnew\n");
		expect(find<HTMLTextAreaElement>("textarea", conflictRow(2)).value).toBe("delta\nnew");
	});

	it("are shown undecided with their choices, never as markers, and marked by origin when merged automatically", () => {
		const merge = open();
		const undecided = find<HTMLTextAreaElement>("textarea", conflictRow(1));
		expect(undecided.value).toBe("");
		expect(undecided.getAttribute("placeholder")).toBe(
			"Undecided: choose a version above, or type the text you want here.",
		);
		expect(find(`.${CLS}-conflict-status`, conflictRow(1)).textContent).toBe("Undecided");
		const results = Array.from(container.querySelectorAll<HTMLTextAreaElement>(`.${CLS}-cell-result textarea`));
		for (const marker of Object.values(MARKERS)) {
			expect(results.some((area) => area.value.includes(marker))).toBe(false);
			expect(find(`.${CLS}-body`).textContent).not.toContain(marker);
		}
		// Markers exist only in what Save would write while conflicts are undecided.
		expect(merge.resultText()).toContain(MARKERS.separator);
		button("Take mine", conflictRow(1)).click();
		expect(undecided.value).toBe("alpha ONE");
		expect(undecided.hasAttribute("placeholder")).toBe(false);
		button("Clear choice", conflictRow(1)).click();
		expect(undecided.value).toBe("");
		expect(counter()).toBe("2 conflicts · 2 left to decide");
		const agentRow = find(`.${CLS}-origin-theirs`);
		expect(find(`.${CLS}-block-label`, agentRow).textContent).toBe("From the agent");
		expect(find(`.${CLS}-cell-theirs ins`, agentRow).textContent).toBe("!");
		expect(find(`.${CLS}-cell-mine del`, conflictRow(1)).textContent).toBe("one");
		expect(find(`.${CLS}-cell-mine ins`, conflictRow(1)).textContent).toBe("ONE");
	});

	it("accept typing as a resolution that accept-all leaves alone and a button replaces", () => {
		const merge = open();
		const area = find<HTMLTextAreaElement>("textarea", conflictRow(1));
		type(area, "alpha typed");
		expect(counter()).toBe("2 conflicts · 1 left to decide");
		expect(find(`.${CLS}-conflict-status`, conflictRow(1)).textContent).toBe("Typed by you");
		button("Accept all agent's").click();
		expect(area.value).toBe("alpha typed");
		expect(find(`.${CLS}-message`).textContent).toBe("1 conflict you typed into was left as you typed it.");
		expect(merge.resultText()).toBe("# Plan\n\nalpha typed\nbeta two\ngamma three!\n\ndelta\nnew\n");
		button("Both, mine first", conflictRow(1)).click();
		expect(area.value).toBe("alpha ONE\nalpha 1");
		expect(confirmMock).not.toHaveBeenCalled();
	});

	it("go back to the automatic merge on reset, asking nothing and offering undo", () => {
		const merge = open();
		button("Accept all mine").click();
		type(find<HTMLTextAreaElement>("textarea", find(`.${CLS}-origin-theirs`)), "gamma typed");
		const before = merge.resultText();
		button("Reset to automatic merge").click();
		expect(confirmMock).not.toHaveBeenCalled();
		expect(counter()).toBe("2 conflicts · 2 left to decide");
		expect(merge.resultText()).toBe(renderMerge(mergeThreeWay(BASE, MINE, THEIRS)));
		expect(find<HTMLTextAreaElement>("textarea", find(`.${CLS}-origin-theirs`)).value).toBe("gamma three!");
		expect(find(`.${CLS}-message`).textContent).toContain("Back to the automatic merge");
		button("Undo").click();
		expect(merge.resultText()).toBe(before);
		expect(counter()).toBe("2 conflicts · all decided");
		expect(find<HTMLTextAreaElement>("textarea", find(`.${CLS}-origin-theirs`)).value).toBe("gamma typed");
		expect(find(`.${CLS}-message`).classList.contains(`${CLS}-hidden`)).toBe(true);
	});

	it("withdraw the undo offer once the person changes something after a reset", () => {
		open();
		button("Accept all agent's").click();
		button("Reset to automatic merge").click();
		expect(button("Undo").isConnected).toBe(true);
		button("Take mine", conflictRow(1)).click();
		expect(find(`.${CLS}-message`).classList.contains(`${CLS}-hidden`)).toBe(true);
		expect(button("Take mine", conflictRow(2)).getAttribute("aria-pressed")).toBe("false");
	});
});

describe("navigation", () => {
	it("focuses the first unresolved conflict on open and moves with Alt+Arrow keys inside the view", () => {
		open({ mine: MINE + "eps\n", theirs: THEIRS + "EPS\n", base: BASE });
		expect(document.activeElement).toBe(conflictRow(1));
		key(conflictRow(1), { key: "ArrowDown", altKey: true });
		expect(document.activeElement).toBe(conflictRow(2));
		key(conflictRow(2), { key: "ArrowUp", altKey: true });
		expect(document.activeElement).toBe(conflictRow(1));
		key(conflictRow(1), { key: "ArrowUp", altKey: true });
		expect(document.activeElement).toBe(conflictRow(2));
		// Keys outside the view do nothing.
		key(document.body, { key: "ArrowDown", altKey: true });
		expect(document.activeElement).toBe(conflictRow(2));
	});

	it("skips resolved conflicts with the buttons and the public methods", () => {
		const merge = open();
		button("Take mine", conflictRow(1)).click();
		button("Next conflict").click();
		expect(document.activeElement).toBe(conflictRow(2));
		merge.previousConflict();
		expect(document.activeElement).toBe(conflictRow(2));
		button("Take mine", conflictRow(2)).click();
		// Nothing left to visit: focus stays where it was.
		merge.nextConflict();
		expect(document.activeElement).toBe(conflictRow(2));
	});

	it("focuses Save on open when nothing conflicts", () => {
		open({ theirs: BASE.replace("# Plan", "# Plan 2") });
		expect(counter()).toBe("No conflicts");
		expect(document.activeElement).toBe(button("Save"));
	});
});

describe("save and cancel", () => {
	it("asks before saving unresolved conflicts and saves their markers", async () => {
		const merge = open();
		confirmMock.mockResolvedValueOnce(false);
		button("Save").click();
		await flush();
		expect(confirmMock).toHaveBeenCalledWith(
			"2 conflicts are undecided. They will be saved into the note with both versions between conflict markers (<<<<<<< and >>>>>>>). Save anyway?",
		);
		expect(saveMock).not.toHaveBeenCalled();
		button("Save").click();
		await flush();
		expect(saveMock).toHaveBeenCalledWith(merge.resultText(), { unresolved: 2 });
		expect(merge.resultText()).toContain(MARKERS.separator);
	});

	it("asks once when Save is pressed again while the question is open", async () => {
		open();
		let answer: (value: boolean) => void = () => undefined;
		confirmMock.mockImplementationOnce(() => new Promise<boolean>((resolve) => (answer = resolve)));
		button("Save").click();
		button("Save").click();
		answer(true);
		await flush();
		expect(confirmMock).toHaveBeenCalledTimes(1);
		expect(saveMock).toHaveBeenCalledTimes(1);
	});

	it("saves without asking once resolved, reporting that nothing was left unresolved", async () => {
		open();
		button("Accept all agent's").click();
		button("Save").click();
		await flush();
		expect(confirmMock).not.toHaveBeenCalled();
		expect(saveMock).toHaveBeenCalledWith(THEIRS, { unresolved: 0 });
	});

	it("shows Saving… while saving and the error when saving fails", async () => {
		open();
		button("Accept all mine").click();
		let fail: (error: Error) => void = () => undefined;
		saveMock.mockImplementationOnce(() => new Promise<void>((_, reject) => (fail = reject)));
		button("Save").click();
		await flush();
		const save = find<HTMLButtonElement>("button.mod-cta");
		expect(save.disabled).toBe(true);
		expect(save.getAttribute("aria-label")).toBe("Saving…");
		expect(find("span", save).textContent).toBe("Saving…");
		button("Saving…").click();
		fail(new Error("The note changed on disk"));
		await flush();
		expect(saveMock).toHaveBeenCalledTimes(1);
		expect(save.disabled).toBe(false);
		expect(save.getAttribute("aria-label")).toBe("Save");
		expect(find("span", save).textContent).toBe("Save");
		const error = find(`.${CLS}-error`);
		expect(error.getAttribute("role")).toBe("alert");
		expect(error.textContent).toBe("Could not save: The note changed on disk");
	});

	it("cancels with Escape or Cancel, saving nothing and asking nothing", () => {
		open();
		type(find<HTMLTextAreaElement>("textarea", conflictRow(1)), "typed");
		key(find("textarea"), { key: "Escape" });
		expect(cancelMock).toHaveBeenCalledTimes(1);
		button("Cancel").click();
		expect(cancelMock).toHaveBeenCalledTimes(2);
		key(find("textarea"), { key: "Escape", shiftKey: true });
		expect(cancelMock).toHaveBeenCalledTimes(2);
		expect(confirmMock).not.toHaveBeenCalled();
		expect(saveMock).not.toHaveBeenCalled();
	});
});

describe("long notes", () => {
	const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i}\n`).join("");

	it("collapse unchanged stretches without a textarea until expanded", () => {
		const base = lines(200);
		const mine = base.replace("line 100\n", "line 100 mine\n");
		const theirs = base.replace("line 150\n", "line 150 agent\n");
		const merge = open({ base, mine, theirs });
		const bars = Array.from(container.querySelectorAll(`.${CLS}-collapsed`));
		expect(bars.map((bar) => find(`.${CLS}-collapsed-text`, bar).textContent)).toEqual([
			"… 97 unchanged lines",
			"… 43 unchanged lines",
			"… 46 unchanged lines",
		]);
		expect(bars.every((bar) => bar.querySelector("textarea") === null)).toBe(true);
		expect(container.querySelectorAll("textarea")).toHaveLength(6);
		const expand = find<HTMLButtonElement>("button", bars[1] ?? container);
		expect(expand.getAttribute("aria-label")).toBe("Expand 43 unchanged lines");
		expand.click();
		expect(container.querySelectorAll(`.${CLS}-collapsed`)).toHaveLength(2);
		expect(container.querySelectorAll("textarea")).toHaveLength(7);
		const area = document.activeElement as HTMLTextAreaElement;
		expect(area.tagName).toBe("TEXTAREA");
		expect(area.value.split("\n")).toHaveLength(43);
		expect(merge.resultText()).toBe(
			base.replace("line 100\n", "line 100 mine\n").replace("line 150\n", "line 150 agent\n"),
		);
	});
});

describe("base", () => {
	it("is shown on demand", () => {
		open();
		const toggle = button("Show base");
		expect(toggle.getAttribute("aria-pressed")).toBe("false");
		toggle.click();
		expect(toggle.getAttribute("aria-pressed")).toBe("true");
		expect(find(`.${CLS}`).classList.contains(`${CLS}-show-base`)).toBe(true);
		expect(find(`.${CLS}-cell-base`, conflictRow(1)).textContent).toBe("alpha one");
	});

	it("missing is said plainly, and every difference is a conflict without a Base button", () => {
		const merge = open({ base: null });
		expect(find(`.${CLS}-no-base`).textContent).toContain("What the agent read is no longer kept");
		expect(
			Array.from(container.querySelectorAll("button")).some(
				(element) => element.textContent === "Show base" || element.textContent === "Neither (base)",
			),
		).toBe(false);
		expect(counter()).toBe("3 conflicts · 3 left to decide");
		button("Accept all agent's").click();
		expect(merge.resultText()).toBe(THEIRS);
	});
});

describe("rebase", () => {
	it("re-merges against the newer note, keeps choices that still apply and says what happened", () => {
		const merge = open();
		button("Take the agent's", conflictRow(1)).click();
		button("Take mine", conflictRow(2)).click();
		merge.rebase(MINE.replace("delta mine", "delta mine v2"), "Your note changed while this was open; merged again.");
		expect(find(`.${CLS}-message`).textContent).toBe(
			"Your note changed while this was open; merged again. 1 choice or edit no longer applies because your note changed there.",
		);
		expect(counter()).toBe("2 conflicts · 1 left to decide");
		expect(button("Take the agent's", conflictRow(1)).getAttribute("aria-pressed")).toBe("true");
		expect(document.activeElement).toBe(conflictRow(2));
	});
});

describe("a save made by another program", () => {
	it("labels the note now as the program's save and the kept side as what it replaced", () => {
		open({ agentName: "another program", outside: true });
		const headings = Array.from(container.querySelectorAll("h3")).map((heading) => heading.textContent);
		expect(headings).toEqual([
			"Base: before either change",
			"The note now (another program's save)",
			"Result",
			"Before that save (kept)",
		]);
	});
});

describe("accessibility and hygiene", () => {
	it("names every button and labels every pane and text box", () => {
		open();
		for (const element of Array.from(container.querySelectorAll("button"))) {
			expect((element.textContent ?? "").trim() || element.getAttribute("aria-label")).toBeTruthy();
		}
		const headings = Array.from(container.querySelectorAll("h3")).map((heading) => heading.textContent);
		expect(headings).toEqual(["Base: before either change", "Your note", "Result", "Agent (claude-code)"]);
		for (const area of Array.from(container.querySelectorAll("textarea")))
			expect(area.getAttribute("aria-label")).toMatch(/^Result/);
		for (const cell of Array.from(container.querySelectorAll(`.${CLS}-cell`))) {
			expect(document.getElementById(cell.getAttribute("aria-labelledby") ?? "")).not.toBeNull();
		}
	});

	it("removes itself on destroy", () => {
		const merge = open();
		merge.destroy();
		view = null;
		expect(container.childElementCount).toBe(0);
	});

	it("builds DOM without HTML strings or inline styles", () => {
		const folder = join(__dirname, "../../../src/ui/merge");
		for (const file of readdirSync(folder)) {
			const source = readFileSync(join(folder, file), "utf8");
			expect(source, file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|\.style\b|setCssStyles/);
		}
	});
});
