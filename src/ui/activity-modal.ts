/**
 * Recent agent writes and deletes across the vault, newest first (all keys, or one key's), each with Revert (after a
 * confirmation) and its note's history.
 */
import { Modal, Notice, type App } from "obsidian";
import type { ActivityEntry } from "../service/history/agent-activity";
import type { UndoActions } from "./undo-actions";

export class AgentActivityModal extends Modal {
	/** The key whose writes are shown; null for every key. */
	private agent: string | null = null;

	constructor(
		app: App,
		private readonly actions: UndoActions,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle("Recent agent activity");
		this.modalEl.addClass("revision-guard-activity-modal");
		this.render();
	}

	override onClose(): void {
		this.contentEl.empty();
	}

	render(): void {
		const { contentEl } = this;
		contentEl.empty();
		const writes = this.actions.activity();
		if (writes.length === 0) {
			contentEl.createEl("p", { text: "No agent has changed a note yet." });
			return;
		}
		this.renderKeyFilter(writes);
		const list = contentEl.createEl("ul", { cls: "revision-guard-history-list" });
		for (const write of writes) if (this.agent === null || write.agent === this.agent) this.renderWrite(list, write);
	}

	private renderKeyFilter(writes: ActivityEntry[]): void {
		const keys = [...new Set(writes.map((write) => write.agent))].sort();
		if (keys.length < 2) return;
		const select = this.contentEl.createEl("select", {
			cls: "dropdown revision-guard-activity-filter",
			attr: { "aria-label": "Show writes by" },
		});
		select.createEl("option", { text: "All keys", value: "" });
		for (const key of keys) select.createEl("option", { text: key, value: key });
		select.value = this.agent ?? "";
		select.addEventListener("change", () => {
			this.agent = select.value === "" ? null : select.value;
			this.render();
		});
	}

	private renderWrite(list: HTMLElement, write: ActivityEntry): void {
		const item = list.createEl("li", { cls: "revision-guard-history-item" });
		item.dataset.path = write.path;
		item.createDiv({ cls: "revision-guard-history-title", text: write.path });
		const state = write.deleted
			? "deleted the note"
			: write.movedFrom !== null
				? `moved it from ${write.movedFrom}`
				: write.replaced === null
					? "created the note"
					: write.current
						? "the note is unchanged since"
						: "the note changed since";
		item.createDiv({
			cls: "revision-guard-history-meta",
			text: `${write.agent} · ${new Date(write.time).toLocaleString()} · ${state}`,
		});
		const buttons = item.createDiv({ cls: "revision-guard-history-actions" });
		if (write.revertible)
			buttons
				.createEl("button", { text: "Revert", cls: "mod-cta" })
				.addEventListener("click", () => void this.revert(write));
		buttons.createEl("button", { text: "Show history" }).addEventListener("click", () => {
			this.close();
			this.actions.showHistory(write.path);
		});
		buttons.createEl("button", { text: "Open note" }).addEventListener("click", () => {
			this.close();
			this.actions.openNote(write.path);
		});
	}

	private async revert(write: ActivityEntry): Promise<void> {
		const how = write.deleted
			? "The note is created again with the text it had, unless a new note is there now."
			: write.movedFrom !== null
				? `The note is moved back to ${write.movedFrom} (unless a note is there now), and links ` +
					`the move rewrote are put back.`
				: write.replaced === null
					? "The note is moved to the trash."
					: write.current
						? "Its text from before the write is put back."
						: "The note changed since, so only the agent's change is taken out.";
		if (!(await this.actions.confirm(`Revert ${write.agent}'s write to ${write.path}? ${how}`, "Revert"))) return;
		// Against the note as it is now: the service checks that the write is still the one to undo.
		const message = await this.actions.revert(write.path, write.revision, null);
		if (message === null) return this.close();
		new Notice(message);
		this.render();
	}
}
