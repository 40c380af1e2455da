// @vitest-environment happy-dom
/**
 * The merge view in review mode (a proposal): the proposal against the note, Accept (as sent, or with edits), Edit then
 * accept, Reject with a note, and the three-way merge when the note changed since.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { MergeView, type MergeViewCallbacks, type MergeViewInput } from "../../../src/ui/merge/merge-view";
import { installDomHelpers } from "../../obsidian-stub/dom";

const CLS = "revision-guard-merge";
const NOTE = "# Plan\n\nalpha\n\nbeta\n\ngamma\n";
const PROPOSAL = "# Plan\n\nalpha (agent)\n\nbeta\n\ngamma\n\ndelta (agent)\n";

let container: HTMLElement;
let view: MergeView | null;
let saveMock: Mock<MergeViewCallbacks["onSave"]>;
let rejectMock: Mock<NonNullable<MergeViewCallbacks["onReject"]>>;
let confirmMock: Mock<MergeViewCallbacks["confirm"]>;
let cancelMock: Mock<MergeViewCallbacks["onCancel"]>;

beforeEach(() => {
	installDomHelpers();
	container = document.body.createDiv();
	saveMock = vi.fn<MergeViewCallbacks["onSave"]>(() => Promise.resolve());
	rejectMock = vi.fn<NonNullable<MergeViewCallbacks["onReject"]>>(() => Promise.resolve());
	confirmMock = vi.fn<MergeViewCallbacks["confirm"]>(() => Promise.resolve(true));
	cancelMock = vi.fn<MergeViewCallbacks["onCancel"]>();
	view = null;
});

afterEach(() => {
	view?.destroy();
	container.remove();
});

/** As the review modal opens it while the note is unchanged since the proposal: the note is base and mine. */
function review(overrides: Partial<MergeViewInput> = {}): MergeView {
	view = new MergeView(
		container,
		{
			notePath: "Projects/Plan.md",
			agentName: "claude",
			base: NOTE,
			mine: NOTE,
			theirs: PROPOSAL,
			agentWroteAt: "2026-11-21T10:15:00.000Z",
			backupPath: "Projects/Plan.20261121-101500.bak.md",
			review: { changedSince: false },
			...overrides,
		},
		{ onSave: saveMock, onCancel: cancelMock, confirm: confirmMock, onReject: rejectMock, openBackup: () => undefined },
	);
	return view;
}

function button(text: string, scope: ParentNode = container): HTMLButtonElement {
	const match = Array.from(scope.querySelectorAll("button")).find(
		(element) => (element.getAttribute("aria-label") ?? element.textContent) === text,
	);
	if (!match)
		throw new Error(
			`No button "${text}" among ${Array.from(scope.querySelectorAll("button"))
				.map((element) => element.getAttribute("aria-label") ?? element.textContent)
				.join(", ")}`,
		);
	return match;
}

const visible = (element: Element) => !element.closest(`.${CLS}-hidden`);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("review mode", () => {
	it("shows the proposal against the note: its wording, the proposal column, and every change already in the result", () => {
		const merge = review();
		expect(container.querySelector(`.${CLS}-title`)?.textContent).toContain(
			"Projects/Plan.md · proposal from claude, made ",
		);
		expect(button("Open the proposal (.bak)")).toBeDefined();
		expect(container.querySelector(`.${CLS}-review-intro`)?.textContent).toBe(
			"claude proposes this change; nothing was written. The result column is what Accept writes: untick a change to leave it out, or edit it.",
		);
		expect(Array.from(container.querySelectorAll(`.${CLS}-heading`)).map((heading) => heading.textContent)).toEqual([
			"Base: before either change",
			"Your note",
			"Result",
			"Proposal (claude)",
		]);
		expect(container.querySelector(`.${CLS}-counter`)?.textContent).toBe("No conflicts");
		expect(merge.resultText()).toBe(PROPOSAL);
		const footer = Array.from(container.querySelectorAll(`.${CLS}-footer button`))
			.filter(visible)
			.map((element) => element.getAttribute("aria-label") ?? element.textContent);
		expect(footer).toEqual(["Cancel", "Reject…", "Edit then accept", "Accept"]);
		expect(container.querySelector(`.${CLS}-footer .mod-cta`)?.getAttribute("aria-label")).toBe("Accept");
	});

	it("accepts the proposal as sent", async () => {
		review();
		button("Accept").click();
		await flush();
		expect(saveMock).toHaveBeenCalledWith(PROPOSAL, { unresolved: 0 });
	});

	it("says Accept with edits once a change is left out, and accepts what the result then holds", async () => {
		const merge = review();
		const boxes = Array.from(container.querySelectorAll<HTMLInputElement>(`.${CLS}-keep-box`));
		expect(boxes.length).toBe(2);
		boxes[1]!.checked = false;
		boxes[1]!.dispatchEvent(new Event("change", { bubbles: true }));
		expect(merge.resultText()).toBe("# Plan\n\nalpha (agent)\n\nbeta\n\ngamma\n");
		button("Accept with edits").click();
		await flush();
		expect(saveMock).toHaveBeenCalledWith("# Plan\n\nalpha (agent)\n\nbeta\n\ngamma\n", { unresolved: 0 });
	});

	it("Edit then accept puts the person in the result's first change, with a hint; typing is accepted with edits", async () => {
		const merge = review();
		button("Edit then accept").click();
		const focused = document.activeElement as HTMLTextAreaElement;
		expect(focused.closest(`.${CLS}-cell-result`)).not.toBeNull();
		expect(focused.value).toContain("alpha (agent)");
		expect(container.querySelector(`.${CLS}-message`)?.textContent).toBe(
			"Edit the result column, then accept. Untick a change to leave it out.",
		);
		focused.value = focused.value.replace("alpha (agent)", "alpha (agent, edited)");
		focused.dispatchEvent(new Event("input", { bubbles: true }));
		expect(merge.resultText()).toContain("alpha (agent, edited)");
		button("Accept with edits").click();
		await flush();
		expect(saveMock.mock.calls[0]![0]).toContain("alpha (agent, edited)");
	});

	it("rejects with a note to the agent, and can go back to reviewing without rejecting", async () => {
		review();
		const panel = container.querySelector(`.${CLS}-reject`)!;
		expect(visible(panel)).toBe(false);
		button("Reject…").click();
		expect(visible(panel)).toBe(true);
		const note = panel.querySelector<HTMLTextAreaElement>("textarea")!;
		expect(document.activeElement).toBe(note);
		expect(note.getAttribute("placeholder")).toBe("Note to the agent (optional): why, or what to do instead");
		button("Keep reviewing").click();
		expect(visible(panel)).toBe(false);
		expect(rejectMock).not.toHaveBeenCalled();
		button("Reject…").click();
		note.value = "Keep the old wording.";
		button("Reject proposal").click();
		await flush();
		expect(rejectMock).toHaveBeenCalledWith("Keep the old wording.");
		expect(saveMock).not.toHaveBeenCalled();
	});

	it("shows a failed accept or reject in the footer and stays open", async () => {
		saveMock.mockImplementation(() => Promise.reject(new Error("This proposal is already rejected.")));
		review();
		button("Accept").click();
		await flush();
		await flush();
		expect(container.querySelector(`.${CLS}-error`)?.textContent).toBe(
			"Could not accept: This proposal is already rejected.",
		);
	});

	it("accepts with Ctrl+Enter and cancels with Escape, like the merge", async () => {
		review();
		container
			.querySelector(`.${CLS}`)!
			.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true, bubbles: true, cancelable: true }));
		await flush();
		expect(saveMock).toHaveBeenCalledTimes(1);
		container
			.querySelector(`.${CLS}`)!
			.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
		expect(cancelMock).toHaveBeenCalled();
	});

	it("is the three-way merge once the note changed since the proposal, and says so", () => {
		const mine = "# Plan\n\nalpha (you)\n\nbeta (you)\n\ngamma\n";
		review({ base: NOTE, mine, review: { changedSince: true } });
		expect(container.querySelector(`.${CLS}-review-intro`)?.textContent).toContain(
			"The note changed since claude proposed this",
		);
		expect(container.querySelector(`.${CLS}-counter`)?.textContent).toBe("1 conflict · 1 left to decide");
		expect(button("Accept merge")).toBeDefined();
	});

	it("becomes the three-way merge when the note changes while it is open", () => {
		const merge = review();
		merge.rebase("# Plan\n\nalpha\n\nbeta (you)\n\ngamma\n", "The note changed while you were reviewing.");
		expect(container.querySelector(`.${CLS}-review-intro`)?.textContent).toContain(
			"The note changed since claude proposed this",
		);
		expect(merge.resultText()).toBe("# Plan\n\nalpha (agent)\n\nbeta (you)\n\ngamma\n\ndelta (agent)\n");
		expect(button("Accept merge")).toBeDefined();
	});
});
