/** Lists the proposals waiting for the person: which note, which agent, when, and what it asked for. */
import { Modal, type App } from "obsidian";
import type { ProposalRecord } from "../core/proposals";
import type { NoteProposals } from "../service/proposals/note-proposals";

export interface ProposalListActions {
	openPath(path: string): void;
	review(id: string): void;
}

const ASKED: Record<ProposalRecord["operation"], string> = {
	replace: "the whole note",
	append: "text at the end",
	patch: "a change to part of the note",
	edit: "exact text edits",
};

export class ProposalListModal extends Modal {
	constructor(
		app: App,
		private readonly proposals: Pick<NoteProposals, "list">,
		private readonly actions: ProposalListActions,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle("Proposals from agents");
		this.render();
	}

	override onClose(): void {
		this.contentEl.empty();
	}

	private render(): void {
		const { contentEl } = this;
		contentEl.empty();
		contentEl.addClass("revision-guard-proposals");
		const pending = this.proposals.list("pending");
		if (pending.length === 0) {
			contentEl.createEl("p", {
				text:
					"No proposals wait for you. Changes from keys that may only propose are listed here " +
					"until you accept or reject them.",
			});
			return;
		}
		const list = contentEl.createEl("ul", { cls: "revision-guard-conflict-list" });
		for (const record of pending) this.renderRecord(list, record);
	}

	private renderRecord(list: HTMLElement, record: ProposalRecord): void {
		const item = list.createEl("li", { cls: "revision-guard-conflict revision-guard-proposal" });
		item.createDiv({ cls: "revision-guard-conflict-title", text: record.path });
		item.createDiv({
			cls: "revision-guard-conflict-meta",
			text: `${record.agent} · ${new Date(record.time).toLocaleString()} · ${ASKED[record.operation]}`,
		});
		const actions = item.createDiv({ cls: "revision-guard-conflict-actions" });
		actions.createEl("button", { text: "Review", cls: "mod-cta" }).addEventListener("click", () => {
			this.close();
			this.actions.review(record.id);
		});
		actions.createEl("button", { text: "Open note" }).addEventListener("click", () => {
			this.actions.openPath(record.path);
			this.close();
		});
		actions.createEl("button", { text: "Open proposal" }).addEventListener("click", () => {
			this.actions.openPath(record.backupPath);
			this.close();
		});
	}
}
