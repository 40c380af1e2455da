// @vitest-environment happy-dom
/**
 * The merge view's orientation and trust features: one tick box per automatic change, rule marks, line numbers that
 * follow choices, the overview, when the agent wrote, the .bak link, shortcuts on buttons, a tooltip on every button.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { MergeView, type MergeViewCallbacks, type MergeViewInput } from "../../../src/ui/merge/merge-view";
import { installDomHelpers } from "../../obsidian-stub/dom";

const CLS = "revision-guard-merge";
const BASE = "# Plan\n\nalpha one\nbeta two\ngamma three\n\ndelta\n";
const MINE = "# Plan\n\nalpha ONE\nbeta two\ngamma three\n\ndelta mine\n";
const THEIRS = "# Plan\n\nalpha 1\nbeta two\ngamma three!\n\ndelta\nnew\n";

let container: HTMLElement;
let view: MergeView | null;
let saveMock: Mock<MergeViewCallbacks["onSave"]>;
let openBackup: Mock<() => void>;

beforeEach(() => {
	installDomHelpers();
	container = document.body.createDiv();
	saveMock = vi.fn<MergeViewCallbacks["onSave"]>(() => Promise.resolve());
	openBackup = vi.fn<() => void>();
	view = null;
});

afterEach(() => {
	view?.destroy();
	container.remove();
});

function open(overrides: Partial<MergeViewInput> = {}, withBackup = true): MergeView {
	const input: MergeViewInput = {
		notePath: "Plan.md",
		agentName: "claude-code",
		base: BASE,
		mine: MINE,
		theirs: THEIRS,
		...overrides,
	};
	const callbacks: MergeViewCallbacks = {
		onSave: saveMock,
		onCancel: () => undefined,
		confirm: () => Promise.resolve(true),
	};
	view = new MergeView(container, input, withBackup ? { ...callbacks, openBackup } : callbacks);
	return view;
}

function find<T extends Element = HTMLElement>(selector: string, scope: ParentNode = container): T {
	const element = scope.querySelector<T>(selector);
	if (!element) throw new Error(`Nothing matches ${selector}`);
	return element;
}

function named(name: string, scope: ParentNode = container): HTMLButtonElement {
	const match = Array.from(scope.querySelectorAll("button")).find(
		(element) => (element.getAttribute("aria-label") ?? element.textContent) === name,
	);
	if (!match) throw new Error(`No button "${name}"`);
	return match;
}

const conflictRow = (number: number) => container.querySelectorAll<HTMLElement>(`.${CLS}-row-conflict`)[number - 1]!;
const numbers = (cell: Element) =>
	Array.from(cell.querySelectorAll(`.${CLS}-line[data-line]`)).map((line) => line.getAttribute("data-line"));

function untick(box: HTMLInputElement): void {
	box.checked = !box.checked;
	box.dispatchEvent(new Event("change", { bubbles: true }));
}

describe("automatic changes", () => {
	it("each have a tick box that undoes that change alone, in the result, the badge and the overview", () => {
		const merge = open();
		const row = find(`.${CLS}-origin-theirs`);
		const box = find<HTMLInputElement>(`input[type="checkbox"]`, row);
		expect(box.checked).toBe(true);
		expect(box.getAttribute("aria-label")).toBe("Keep the agent's change");
		expect(find(`.${CLS}-keep`, row).getAttribute("title")).toContain(
			"the base, the text before either of you changed it",
		);
		const before = merge.resultText();
		untick(box);
		expect(merge.resultText()).toBe(before.replace("gamma three!\n", "gamma three\n"));
		expect(find<HTMLTextAreaElement>("textarea", row).value).toBe("gamma three");
		expect(find(`.${CLS}-block-label`, row).textContent).toBe("Agent's change undone");
		expect(row.classList.contains(`${CLS}-undone`)).toBe(true);
		expect(container.querySelectorAll(`.${CLS}-mark-undone`)).toHaveLength(1);
		untick(box);
		expect(merge.resultText()).toBe(before);
		expect(find(`.${CLS}-block-label`, row).textContent).toBe("From the agent");
	});

	it("made by a markdown rule say which rule, and can take either side's block instead", () => {
		const base = "---\ntags: [x]\n---\nbody\n";
		const merge = open({ base, mine: "---\ntags: [x, y]\n---\nbody\n", theirs: "---\ntags: [x, z]\n---\nbody\n" });
		const row = find(`.${CLS}-rule`);
		expect(find(`.${CLS}-rule-mark`, row).textContent).toBe("tags rule");
		expect(find(`.${CLS}-rule-mark`, row).getAttribute("title")).toContain("Merged by the tags rule");
		expect(numbers(find(`.${CLS}-cell-mine`, row))).toEqual(["1", "2", "3"]);
		expect(find(`.${CLS}-cell-mine ins`, row).textContent).toContain("y");
		named("Use the agent's", row).click();
		expect(merge.resultText()).toBe("---\ntags: [x, z]\n---\nbody\n");
		expect(named("Use the agent's", row).getAttribute("aria-pressed")).toBe("true");
		expect(find<HTMLInputElement>(`input[type="checkbox"]`, row).checked).toBe(false);
		untick(find<HTMLInputElement>(`input[type="checkbox"]`, row));
		expect(merge.resultText()).toBe("---\ntags: [x, y, z]\n---\nbody\n");
	});
});

describe("orientation", () => {
	it("numbers lines in every pane and renumbers the result when a choice changes its length", () => {
		open();
		const gamma = find(`.${CLS}-origin-theirs`);
		expect(numbers(find(`.${CLS}-cell-theirs`, gamma))).toEqual(["5"]);
		// The undecided conflict above takes no lines in the result yet.
		expect(numbers(find(`.${CLS}-cell-result`, gamma))).toEqual(["4"]);
		named("Both, mine first", conflictRow(1)).click();
		expect(numbers(find(`.${CLS}-cell-result`, conflictRow(1)))).toEqual(["3", "4"]);
		expect(numbers(find(`.${CLS}-cell-result`, gamma))).toEqual(["6"]);
		// Line numbers are drawn by CSS from data-line: the text itself stays clean.
		expect(find(`.${CLS}-cell-theirs`, gamma).textContent).toBe("gamma three!");
	});

	it("shows an overview mark per change and conflict; a conflict's mark focuses it", () => {
		open();
		const marks = Array.from(container.querySelectorAll(`.${CLS}-overview rect`));
		expect(marks.map((mark) => mark.getAttribute("class")?.replace(`${CLS}-mark `, ""))).toEqual([
			`${CLS}-mark-unresolved`,
			`${CLS}-mark-theirs`,
			`${CLS}-mark-unresolved`,
		]);
		expect(find("title", marks[2]).textContent).toBe("Conflict 2 of 2: undecided");
		marks[2]!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
		expect(document.activeElement).toBe(conflictRow(2));
		named("Take mine", conflictRow(2)).click();
		expect(container.querySelectorAll(`.${CLS}-mark-resolved`)).toHaveLength(1);
	});

	it("says when the agent wrote and opens the .bak through the host", () => {
		open({ agentWroteAt: "2026-11-23T05:42:00.000Z", backupPath: "Plan.20261123-054200.bak.md" });
		expect(find("time").getAttribute("datetime")).toBe("2026-11-23T05:42:00.000Z");
		const link = named("Open the agent's version (.bak)");
		expect(link.getAttribute("title")).toContain("Plan.20261123-054200.bak.md");
		link.click();
		expect(openBackup).toHaveBeenCalledTimes(1);
	});

	it("offers no .bak link when the host cannot open one, and no time when it is unknown", () => {
		open({ backupPath: "Plan.bak.md" }, false);
		expect(container.querySelector(`.${CLS}-backup-link`)).toBeNull();
		expect(container.querySelector("time")).toBeNull();
	});

	it("shows shortcuts on their buttons and saves with Ctrl+Enter", async () => {
		open();
		expect(find("kbd", named("Next conflict")).textContent).toBe("Alt+↓");
		expect(find("kbd", named("Previous conflict")).textContent).toBe("Alt+↑");
		expect(find("kbd", named("Cancel")).textContent).toBe("Esc");
		expect(find("kbd", named("Save")).textContent).toBe("Ctrl+Enter");
		expect(named("Save").getAttribute("aria-keyshortcuts")).toBe("Control+Enter");
		named("Accept all agent's").click();
		find("textarea").dispatchEvent(
			new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true, bubbles: true, cancelable: true }),
		);
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(saveMock).toHaveBeenCalledWith(THEIRS, { unresolved: 0 });
	});

	it("explains every button with a tooltip, and Neither (base) says what base is", () => {
		open({ agentWroteAt: "2026-11-23T05:42:00.000Z", backupPath: "Plan.bak.md" });
		for (const element of Array.from(container.querySelectorAll("button"))) {
			expect(element.getAttribute("title"), element.textContent ?? "").toBeTruthy();
		}
		expect(named("Neither (base)", conflictRow(1)).getAttribute("title")).toBe(
			"Drop both changes: use the base, the text before either of you changed it",
		);
		expect(named("Show base").getAttribute("title")).toContain("the text before either of you changed it");
		expect(find(`.${CLS}-heading.${CLS}-cell-base`).getAttribute("title")).toContain(
			"the text before either of you changed it",
		);
	});
});
