/**
 * A three-way revert the person merges: base = the agent's result, mine = the note now, theirs = what the agent
 * replaced. Hosts the same MergeView as the conflict merge modal and saves through the guarded writer as the person,
 * replacing exactly the note it merged against; a note that moved on meanwhile is merged again, never overwritten.
 */
import { Modal, Notice, type App } from "obsidian";
import type { RevertSides } from "../service/history/agent-activity";
import type { PersonNotes } from "../service/notes/person-notes";
import { ConfirmModal } from "./confirm-modal";
import { MergeView } from "./merge/merge-view";

export class RevertMergeModal extends Modal {
	private view: MergeView | null = null;
	private mineRevision: string;

	constructor(
		app: App,
		private readonly person: Pick<PersonNotes, "saveRevertMerge" | "noteNow">,
		private readonly sides: RevertSides,
	) {
		super(app);
		this.mineRevision = sides.mineRevision;
	}

	override onOpen(): void {
		this.modalEl.addClass("revision-guard-merge-modal");
		this.setTitle(`Revert ${this.sides.agent}'s write to ${this.sides.path}`);
		this.contentEl.createEl("p", {
			cls: "revision-guard-revert-intro",
			text:
				`The note changed after ${this.sides.agent}'s write. Choose what to keep: "Your note" ` +
				`is the note now, the agent column is the text before the agent's write, and the base ` +
				`is what the agent left.`,
		});
		this.view = new MergeView(
			this.contentEl,
			{
				notePath: this.sides.path,
				agentName: `before ${this.sides.agent}'s write`,
				base: this.sides.base,
				mine: this.sides.mine,
				theirs: this.sides.theirs,
			},
			{
				onSave: (text) => this.save(text),
				onCancel: () => this.close(),
				confirm: (message) => new ConfirmModal(this.app, message, "Save anyway").ask(),
			},
		);
	}

	override onClose(): void {
		this.view?.destroy();
		this.view = null;
		this.contentEl.empty();
	}

	private async save(text: string): Promise<void> {
		const outcome = await this.person.saveRevertMerge(this.sides.path, text, this.mineRevision);
		if (outcome.kind === "written" || outcome.kind === "unchanged") {
			new Notice(`Reverted ${this.sides.agent}'s write to ${this.sides.path}.`);
			this.close();
			return;
		}
		// The note moved on while the person merged: merge again against the newer note, keeping their choices. Never
		// write an automatic revert here: the person's merge may differ from it, and they have not seen it.
		const now = await this.person.noteNow(this.sides.path);
		if (now === null) {
			new Notice(
				`${this.sides.path} was deleted before your save could land, so nothing was written. ` +
					`Your merge is still open here; copy what you need.`,
			);
			return;
		}
		this.mineRevision = now.revision;
		this.view?.rebase(
			now.content,
			"The note changed before your save could land, so nothing was written. The merge " +
				"was redone against the new version; check it and save again.",
		);
	}
}
