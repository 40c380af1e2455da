/**
 * The merge modal: hosts the plain-DOM MergeView inside an Obsidian Modal, saves through the conflict resolver
 * (and so through the guarded writer), and re-merges whenever the note changes under it. Closing it (Cancel or
 * Escape) leaves the note, the .bak and the conflict exactly as they were.
 */
import { Modal, Notice, Platform, type App } from "obsidian";
import type { PersonConflicts } from "../service/notes/person-notes";
import type { VaultChange } from "../vault/gateway";
import { ConfirmModal } from "./confirm-modal";
import { MergeView } from "./merge/merge-view";

export interface MergeModalDeps {
	resolver: Pick<PersonConflicts, "sides" | "save">;
	/** Vault change events, so the modal notices edits made while it is open. */
	onVaultChange: (listener: (change: VaultChange) => void) => () => void;
}

export class MergeModal extends Modal {
	private view: MergeView | null = null;
	private mineRevision: string | null = null;
	private stopWatching: (() => void) | null = null;
	/** Our own save changes the note too; that change is not news to the person. */
	private saving = false;
	/** Set once the modal closed: a load still under way then stops instead of building a view and listening. */
	private closed = false;

	constructor(
		app: App,
		private readonly deps: MergeModalDeps,
		private readonly conflictId: string,
	) {
		super(app);
	}

	override onOpen(): void {
		this.modalEl.addClass("revision-guard-merge-modal");
		void this.load();
	}

	override onClose(): void {
		this.closed = true;
		this.stopWatching?.();
		this.view?.destroy();
		this.view = null;
		this.contentEl.empty();
	}

	private async load(): Promise<void> {
		const sides = await this.deps.resolver.sides(this.conflictId);
		if (this.closed) return;
		if (!sides) return this.showMessage("This conflict no longer exists.");
		// A save that dropped edits: the note now is the program's save, the kept side what it replaced (labels say so).
		const outside = sides.record.source === "outside" && sides.record.reason === "outside-save";
		const overTyping = sides.record.reason === "outside-over-typing";
		this.setTitle(
			outside
				? `Bring back what another program dropped in ${sides.record.path}`
				: overTyping
					? `Merge another program's save into ${sides.record.path}`
					: `Resolve agent conflict in ${sides.record.path}`,
		);
		if (sides.theirs === null)
			return this.showMessage(
				outside
					? "The dropped version is no longer available: its .bak note was changed or removed."
					: "The agent's version is no longer available: its .bak note was changed or removed.",
			);
		this.mineRevision = sides.mineRevision;
		const backupPath = sides.record.backupPath;
		this.view = new MergeView(
			this.contentEl,
			{
				notePath: sides.record.path,
				agentName: sides.record.agent,
				outside,
				base: sides.base,
				mine: sides.mine ?? "",
				theirs: sides.theirs,
				agentWroteAt: sides.record.time,
				backupPath: sides.record.backupPath,
				mac: Platform.isMacOS === true,
			},
			{
				onSave: (text, summary) => this.save(text, summary.unresolved > 0),
				onCancel: () => this.close(),
				confirm: (message) => new ConfirmModal(this.app, message, "Save anyway").ask(),
				openBackup: backupPath === null ? undefined : () => this.openBackup(backupPath),
			},
		);
		this.stopWatching = this.deps.onVaultChange((change) => {
			if (change.path === sides.record.path && !this.saving)
				void this.refresh(
					"The note changed while you were resolving. The merge was redone against the new " +
						"version; your choices were kept where they still apply.",
				);
		});
	}

	private async save(text: string, unresolved: boolean): Promise<void> {
		this.saving = true;
		const outcome = await this.deps.resolver
			.save(this.conflictId, text, this.mineRevision, { unresolved })
			.finally(() => {
				this.saving = false;
			});
		if (outcome.kind === "failed") throw new Error(outcome.message);
		if (outcome.kind === "changed") {
			this.rebase(
				outcome.sides.mine ?? "",
				outcome.sides.mineRevision,
				"The note changed before your save could land, so nothing was written. The merge " +
					"was redone against the new version; check it and save again.",
			);
			return;
		}
		new Notice("Saved the resolved note.");
		this.close();
	}

	/** Re-reads the note; when it really changed, re-merges and tells the person. */
	private async refresh(message: string): Promise<void> {
		const sides = await this.deps.resolver.sides(this.conflictId);
		if (!sides || sides.mineRevision === this.mineRevision) return;
		this.rebase(sides.mine ?? "", sides.mineRevision, message);
	}

	private rebase(mine: string, revision: string | null, message: string): void {
		this.mineRevision = revision;
		this.view?.rebase(mine, message);
	}

	/** In a new tab, beside the modal; the modal stays open so the person can come back to the merge. */
	private openBackup(path: string): void {
		void this.app.workspace.openLinkText(path, "", true).catch((error: unknown) => {
			new Notice(`Could not open ${path}: ${error instanceof Error ? error.message : String(error)}`);
		});
	}

	private showMessage(text: string): void {
		this.contentEl.empty();
		this.contentEl.createEl("p", { text });
	}
}
