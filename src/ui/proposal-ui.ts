/**
 * Everything a person sees of proposals: a notice when one arrives (with Review), the status-bar count of those
 * waiting, the list (command "Show proposals"), and the review. Until the host has opened its guard, the list
 * answers "still starting".
 */
import { Notice, type App, type Command } from "obsidian";
import type { PersonNotes } from "../service/notes/person-notes";
import { ProposalListModal } from "./proposal-list-modal";
import { showProposalNotice } from "./proposal-notice";
import { ProposalReviewModal } from "./proposal-review-modal";
import { ProposalStatusBar } from "./proposal-status-bar";

export class ProposalUi {
	private readonly bar: ProposalStatusBar;
	private person: PersonNotes | null = null;

	constructor(
		private readonly app: App,
		statusBarItem: HTMLElement,
	) {
		this.bar = new ProposalStatusBar(statusBarItem, () => this.showList());
	}

	commands(): Command[] {
		return [{ id: "show-proposals", name: "Show proposals", callback: () => this.showList() }];
	}

	/** Follows the guard's proposals; returns the cleanup for the plugin to register. */
	start(person: PersonNotes): () => void {
		this.person = person;
		const proposals = person.proposals;
		// Announced once each: a proposal is heard again when its note moves, or when it is decided.
		const announced = new Set(proposals.list("pending").map((record) => record.id));
		this.bar.update(proposals.pendingCount());
		const stop = proposals.onChange((record) => {
			this.bar.update(proposals.pendingCount());
			if (record.status !== "pending" || announced.has(record.id)) return;
			announced.add(record.id);
			showProposalNotice(record, () => this.review(record.id));
		});
		return () => {
			stop();
			this.person = null;
			this.bar.update(0);
		};
	}

	showList(): void {
		const person = this.person;
		if (!person) return void new Notice("The agent API is still starting.");
		new ProposalListModal(this.app, person.proposals, {
			openPath: (path) => void this.app.workspace.openLinkText(path, "", false),
			review: (id) => this.review(id),
		}).open();
	}

	review(id: string): void {
		const person = this.person;
		if (!person) return void new Notice("The agent API is still starting.");
		new ProposalReviewModal(
			this.app,
			{ proposals: person.proposals, onVaultChange: (listener) => person.onVaultChange(listener) },
			id,
		).open();
	}
}
