/** Lists open conflicts: which note, which agent, when, and where the refused version was kept. */
import { Modal, type App } from "obsidian";
import type { ConflictRecord } from "../core/conflicts";
import type { PersonConflicts } from "../service/notes/person-notes";

export interface ConflictListActions {
	openPath(path: string): void;
	resolve(id: string): void;
	dismiss(id: string): void;
}

export class ConflictListModal extends Modal {
	constructor(
		app: App,
		private readonly conflicts: Pick<PersonConflicts, "list">,
		private readonly actions: ConflictListActions,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle("Agent conflicts");
		this.render();
	}

	override onClose(): void {
		this.contentEl.empty();
	}

	private render(): void {
		const { contentEl } = this;
		contentEl.empty();
		contentEl.addClass("revision-guard-conflicts");
		const open = this.conflicts.list({ status: "open" });
		if (open.length === 0) {
			contentEl.createEl("p", { text: "No open conflicts. Every agent write so far was based on the current note." });
			return;
		}
		const list = contentEl.createEl("ul", { cls: "revision-guard-conflict-list" });
		for (const record of open) this.renderRecord(list, record);
	}

	private renderRecord(list: HTMLElement, record: ConflictRecord): void {
		const item = list.createEl("li", { cls: "revision-guard-conflict" });
		item.createDiv({ cls: "revision-guard-conflict-title", text: record.path });
		item.createDiv({
			cls: "revision-guard-conflict-meta",
			text: `${record.agent} · ${new Date(record.time).toLocaleString()} · ${describeReason(record)}`,
		});
		const actions = item.createDiv({ cls: "revision-guard-conflict-actions" });
		actions.createEl("button", { text: "Resolve", cls: "mod-cta" }).addEventListener("click", () => {
			this.close();
			this.actions.resolve(record.id);
		});
		actions.createEl("button", { text: "Open note" }).addEventListener("click", () => {
			this.actions.openPath(record.path);
			this.close();
		});
		const backupPath = record.backupPath;
		if (backupPath) {
			actions.createEl("button", { text: "Open agent's version" }).addEventListener("click", () => {
				this.actions.openPath(backupPath);
				this.close();
			});
		}
		actions.createEl("button", { text: "Dismiss" }).addEventListener("click", () => {
			this.actions.dismiss(record.id);
			this.render();
		});
	}
}

function describeReason(record: ConflictRecord): string {
	switch (record.reason) {
		case "stale":
			return record.currentRevision === null
				? "the note was gone when the agent wrote"
				: "the agent wrote over an older version";
		case "exists":
			return "the agent tried to create a note that exists";
		case "read-expired":
			return "the agent's read was too old";
		case "content-loss":
			return "the write would have erased most of the note";
		case "note-in-use":
			return "you were editing the note where its text could not be checked";
		case "outside-save":
			return "another program saved it without the changes saved before (they are in the .bak)";
		case "outside-over-typing":
			return "another program saved it while you were typing (its text is in the .bak)";
	}
}
