/**
 * A note's history: each revision with who made it and when, its changes on request, and Restore (any kept
 * revision) or Revert (an agent's write), each after a confirmation. A revision whose text is no longer kept is
 * listed but cannot be shown or restored.
 */
import { Modal, Notice, type App } from "obsidian";
import type { HistoryPage, RevisionView } from "../service/history/note-history";
import { HISTORY_PAGE_SIZE, type UndoActions } from "./undo-actions";

export class NoteHistoryModal extends Modal {
	private offset = 0;
	private closed = false;

	constructor(
		app: App,
		private readonly actions: UndoActions,
		private readonly path: string,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle(`History of ${this.path}`);
		this.modalEl.addClass("revision-guard-history-modal");
		void this.render();
	}

	override onClose(): void {
		this.closed = true;
		this.contentEl.empty();
	}

	/** Re-reads the history (after an undo, or for another page) and shows it. */
	async render(): Promise<void> {
		const page = await this.actions.history(this.path, this.offset);
		if (this.closed) return;
		const { contentEl } = this;
		contentEl.empty();
		if (!page || page.total === 0) {
			contentEl.createEl("p", { text: "No history is known for this note yet." });
			return;
		}
		contentEl.createEl("p", {
			cls: "revision-guard-history-intro",
			text: "Restoring a version writes it as a new version, so a restore can be undone too.",
		});
		const list = contentEl.createEl("ul", { cls: "revision-guard-history-list" });
		for (const view of page.revisions) this.renderRevision(list, view, page);
		this.renderPaging(page);
	}

	private renderRevision(list: HTMLElement, view: RevisionView, page: HistoryPage): void {
		const item = list.createEl("li", { cls: "revision-guard-history-item" });
		item.dataset.revision = view.revision;
		const title = item.createDiv({
			cls: "revision-guard-history-title",
			text: `${capitalized(view.by)} · ${new Date(view.time).toLocaleString()}${view.deleted ? " · deleted the note" : ""}${view.movedFrom !== null ? ` · moved it from ${view.movedFrom}` : ""}`,
		});
		if (view.current) title.createSpan({ cls: "revision-guard-history-tag", text: "Current" });
		const size = view.deleted ? "removed the note's text" : `${view.size} bytes`;
		const meta = view.restorable ? size : `${size} · text no longer kept`;
		item.createDiv({ cls: "revision-guard-history-meta", text: meta });
		const buttons = item.createDiv({ cls: "revision-guard-history-actions" });
		const diff = item.createEl("pre", { cls: "revision-guard-history-diff" });
		diff.hidden = true;
		// A delete's row names the revision it removed: its text is shown and restored from that revision's own row.
		if (view.restorable && !view.deleted) {
			buttons
				.createEl("button", { text: "Show changes" })
				.addEventListener("click", () => void this.toggleDiff(diff, view));
		}
		if (view.restorable && !view.current && !view.deleted) {
			buttons
				.createEl("button", { text: "Restore", cls: "mod-cta" })
				.addEventListener("click", () => void this.restore(view, page.currentRevision));
		}
		// Reverting a write that created the note moves it to the trash (while it is unchanged); the service checks.
		if (view.source === "agent") {
			buttons
				.createEl("button", { text: "Revert this write" })
				.addEventListener("click", () => void this.revert(view, page.currentRevision));
		}
	}

	private renderPaging(page: HistoryPage): void {
		if (page.total <= HISTORY_PAGE_SIZE) return;
		const nav = this.contentEl.createDiv({ cls: "revision-guard-history-paging" });
		if (this.offset > 0)
			nav.createEl("button", { text: "Newer" }).addEventListener("click", () => this.turn(-HISTORY_PAGE_SIZE));
		if (this.offset + page.revisions.length < page.total)
			nav.createEl("button", { text: "Older" }).addEventListener("click", () => this.turn(HISTORY_PAGE_SIZE));
	}

	private turn(by: number): void {
		this.offset = Math.max(0, this.offset + by);
		void this.render();
	}

	private async toggleDiff(element: HTMLElement, view: RevisionView): Promise<void> {
		if (!element.hidden) return void (element.hidden = true);
		const detail = await this.actions.detail(this.path, view.revision);
		if (detail.kind !== "revision") element.setText("This version is no longer in the history.");
		else if (detail.diff === null)
			element.setText("The version before this one is no longer kept, so its changes cannot be shown.");
		else
			element.setText(
				detail.diff.text === ""
					? "No changes."
					: detail.diff.text + (detail.diff.truncated ? "\n… (longer changes are cut here)" : ""),
			);
		element.hidden = false;
	}

	private async restore(view: RevisionView, seen: string | null): Promise<void> {
		const when = new Date(view.time).toLocaleString();
		if (
			!(await this.actions.confirm(
				`Restore the version of ${this.path} from ${when} (by ${view.by})? The note's text now stays in its history.`,
				"Restore",
			))
		)
			return;
		new Notice(await this.actions.restore(this.path, view.revision, seen));
		await this.render();
	}

	private async revert(view: RevisionView, seen: string | null): Promise<void> {
		const question = view.deleted
			? `Bring ${this.path} back as it was before ${view.by} deleted it? A note created there since is never replaced.`
			: view.movedFrom !== null
				? `Move ${this.path} back to ${view.movedFrom}, and put back the links ${view.by}'s ` +
					`move rewrote? A note at ${view.movedFrom} is never replaced.`
				: view.previous === null
					? `Move ${this.path}, which ${view.by} created, to the trash? Only if it is unchanged since.`
					: `Take ${view.by}'s write out of ${this.path}? Later changes are kept where they do not conflict.`;
		if (!(await this.actions.confirm(question, "Revert"))) return;
		const message = await this.actions.revert(this.path, view.revision, seen);
		if (message === null) return this.close();
		new Notice(message);
		await this.render();
	}
}

function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
