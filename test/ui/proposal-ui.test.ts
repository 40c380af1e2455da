// @vitest-environment happy-dom
/**
 * Proposals in Obsidian (on the simulation, with the real stack): the notice when one arrives, the status-bar count,
 * the list ("Show proposals"), and the review modal accepting (as sent, with edits, the three-way merge when the note
 * changed since) and rejecting through the service as the person.
 */
import type { App as ObsidianApp } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentActor } from "../../src/service/notes/actor";
import { ProposalListModal } from "../../src/ui/proposal-list-modal";
import { ProposalReviewModal } from "../../src/ui/proposal-review-modal";
import { ProposalUi } from "../../src/ui/proposal-ui";
import { proposalViews } from "../../src/ui/proposal-views";
import { startObsidian, type ObsidianHarness } from "../helpers/obsidian-harness";
import { writeRequest } from "../helpers/write-request";
import { Modal, Notice } from "../obsidian-stub";

const NOTE = "# Plan\n\nalpha\n\nbeta\n";
const PROPOSED = "# Plan\n\nalpha (agent)\n\nbeta\n";

let h: ObsidianHarness;
let bar: HTMLElement;
let ui: ProposalUi;
let stop: () => void;

beforeEach(async () => {
	h = await startObsidian();
	await h.app.vault.create("Plan.md", NOTE);
	await h.app.clock.runAll();
	await h.guard.tracker.flush();
	Notice.shown = [];
	Modal.opened = [];
	bar = document.body.createDiv();
	ui = new ProposalUi(h.app as unknown as ObsidianApp, bar);
	stop = ui.start(h.guard.person, proposalViews(h.app as unknown as ObsidianApp, h.guard.person));
});

afterEach(async () => {
	stop();
	bar.remove();
	await h.close();
});

const propose = (body = PROPOSED, agent = "claude") =>
	h.guard.proposals.propose(writeRequest("Plan.md", body, { actor: agentActor(agent) }));
const note = () => h.app.vault.adapter.read("Plan.md");
const flush = () => new Promise((resolve) => setTimeout(resolve, 20));

function buttonIn(scope: ParentNode, text: string): HTMLButtonElement {
	const match = Array.from(scope.querySelectorAll("button")).find(
		(element) => (element.getAttribute("aria-label") ?? element.textContent) === text,
	);
	if (!match) throw new Error(`No button "${text}"`);
	return match;
}

async function openReview(id: string): Promise<ProposalReviewModal> {
	const modal = new ProposalReviewModal(
		h.app as unknown as ObsidianApp,
		{ proposals: h.guard.notes.proposals, onVaultChange: (listener) => h.guard.gateway.onChange(listener) },
		id,
	);
	modal.open();
	await flush();
	return modal;
}

describe("proposals in Obsidian", () => {
	it("announces a new proposal once, with Review, and counts those waiting in the status bar", async () => {
		expect(bar.classList.contains("revision-guard-hidden")).toBe(true);
		const { id } = await propose();
		expect(Notice.shown.map((notice) => notice.message)).toEqual([
			'claude proposes a change to "Plan.md". Nothing was written; it waits for you.Review',
		]);
		expect(bar.textContent).toBe("1 proposal");
		expect(bar.classList.contains("revision-guard-hidden")).toBe(false);
		await propose("# Plan\n\nsecond\n");
		expect(bar.textContent).toBe("2 proposals");
		await h.guard.notes.proposals.rejectAsPerson(id);
		expect(bar.textContent).toBe("1 proposal");
		// Decided, it is not announced again.
		expect(Notice.shown).toHaveLength(2);
		buttonIn(Notice.shown[1]!.fragment!, "Review").click();
		await flush();
		expect(Modal.opened.at(-1)).toBeInstanceOf(ProposalReviewModal);
		expect(Notice.shown[1]!.hidden).toBe(true);
	});

	it("lists the pending proposals; Review opens the review, and the status bar opens the list", async () => {
		const { id, backupPath } = await propose();
		bar.click();
		const list = Modal.opened.at(-1) as unknown as ProposalListModal;
		expect(list).toBeInstanceOf(ProposalListModal);
		expect(list.contentEl.textContent).toContain("Plan.md");
		expect(list.contentEl.textContent).toContain("claude · ");
		expect(list.contentEl.textContent).toContain("the whole note");
		buttonIn(list.contentEl, "Open proposal").click();
		expect(h.app.workspace.opened).toContain(backupPath);
		bar.click();
		buttonIn((Modal.opened.at(-1) as unknown as ProposalListModal).contentEl, "Review").click();
		await flush();
		const review = Modal.opened.at(-1) as unknown as ProposalReviewModal;
		expect(review).toBeInstanceOf(ProposalReviewModal);
		expect(review.contentEl.textContent).toContain("claude proposes this change");
		review.close();
		await h.guard.notes.proposals.rejectAsPerson(id);
		bar.click();
		expect((Modal.opened.at(-1) as unknown as ProposalListModal).contentEl.textContent).toContain(
			"No proposals wait for you.",
		);
	});

	it("accepts as sent from the review: the note is written as the person's, the proposal accepted", async () => {
		const { id } = await propose();
		const modal = await openReview(id);
		buttonIn(modal.contentEl, "Accept").click();
		await flush();
		expect(await note()).toBe(PROPOSED);
		expect(h.guard.proposals.log.get(id)).toMatchObject({ status: "accepted" });
		expect(Notice.shown.at(-1)?.message).toBe("Accepted claude's proposal for Plan.md.");
		expect((modal as unknown as Modal).isOpen).toBe(false);
		await h.guard.tracker.flush();
		expect(h.guard.history.latest("Plan.md")?.source).toEqual({ kind: "user" });
	});

	it("accepts the person's edit as accepted-with-edits", async () => {
		const { id } = await propose();
		const modal = await openReview(id);
		buttonIn(modal.contentEl, "Edit then accept").click();
		const area = Array.from(
			modal.contentEl.querySelectorAll<HTMLTextAreaElement>(".revision-guard-merge-cell-result textarea"),
		).find((candidate) => candidate.value.includes("alpha (agent)"))!;
		area.value = area.value.replace("alpha (agent)", "alpha (agent, edited)");
		area.dispatchEvent(new Event("input", { bubbles: true }));
		buttonIn(modal.contentEl, "Accept with edits").click();
		await flush();
		expect(await note()).toBe("# Plan\n\nalpha (agent, edited)\n\nbeta\n");
		expect(h.guard.proposals.log.get(id)).toMatchObject({ status: "accepted-with-edits" });
	});

	it("rejects with a note, writing nothing", async () => {
		const { id } = await propose();
		const modal = await openReview(id);
		buttonIn(modal.contentEl, "Reject…").click();
		modal.contentEl.querySelector<HTMLTextAreaElement>(".revision-guard-merge-reject-note")!.value =
			"Not this section.";
		buttonIn(modal.contentEl, "Reject proposal").click();
		await flush();
		expect(await note()).toBe(NOTE);
		expect(h.guard.proposals.log.get(id)).toMatchObject({ status: "rejected", note: "Not this section." });
		expect(Notice.shown.at(-1)?.message).toBe("Rejected claude's proposal for Plan.md; the note was not changed.");
	});

	it("shows the three-way merge when the note changed since, and never writes over the person's change", async () => {
		const { id } = await propose();
		await h.app.vault.modify(h.app.vault.getFileByPath("Plan.md")!, "# Plan\n\nalpha\n\nbeta (you)\n");
		await h.app.clock.runAll();
		const modal = await openReview(id);
		expect(modal.contentEl.textContent).toContain("The note changed since claude proposed this");
		buttonIn(modal.contentEl, "Accept merge").click();
		await flush();
		expect(await note()).toBe("# Plan\n\nalpha (agent)\n\nbeta (you)\n");
		expect(h.guard.proposals.log.get(id)).toMatchObject({ status: "accepted-with-edits" });
	});

	it("redoes the merge when the note changes while the review is open, and accepts over the new note only", async () => {
		const { id } = await propose();
		const modal = await openReview(id);
		await h.app.vault.modify(h.app.vault.getFileByPath("Plan.md")!, "# Plan\n\nalpha\n\nbeta (you, meanwhile)\n");
		await h.app.clock.runAll();
		await flush();
		expect(modal.contentEl.textContent).toContain("The note changed while you were reviewing");
		buttonIn(modal.contentEl, "Accept merge").click();
		await flush();
		expect(await note()).toBe("# Plan\n\nalpha (agent)\n\nbeta (you, meanwhile)\n");
	});

	it("says so when the proposal was decided already", async () => {
		const { id } = await propose();
		await h.guard.notes.proposals.rejectAsPerson(id);
		const modal = await openReview(id);
		expect(modal.contentEl.textContent).toBe("This proposal was already rejected.");
	});
});
