/**
 * Everything a person sees of proposals: a notice when one arrives (with Review), the status-bar count of those
 * waiting, the list (command "Show proposals"), and the review. Until the host has opened its guard, the list
 * answers "still starting"; the modals arrive with the guard (proposal-views.ts), so loading the plugin does not
 * evaluate them.
 */
import { Notice, type App, type Command } from "obsidian";
import type { PersonNotes } from "../service/notes/person-notes";
import { showProposalNotice } from "./proposal-notice";
import { ProposalStatusBar } from "./proposal-status-bar";

/** The list and the review, opened once the guard is open. */
export interface ProposalViews {
	showList(): void;
	review(id: string): void;
}

export class ProposalUi {
	private readonly bar: ProposalStatusBar;
	private views: ProposalViews | null = null;

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
	start(person: PersonNotes, views: ProposalViews): () => void {
		this.views = views;
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
			this.views = null;
			this.bar.update(0);
		};
	}

	showList(): void {
		if (!this.views) return void new Notice("The agent API is still starting.");
		this.views.showList();
	}

	review(id: string): void {
		if (!this.views) return void new Notice("The agent API is still starting.");
		this.views.review(id);
	}
}
