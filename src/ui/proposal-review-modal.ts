/**
 * The review of a proposal: the merge view in review mode, inside an Obsidian Modal. Accept writes the result through
 * the service as the person (AgentNotes.proposals, and so the guarded writer), over exactly the note the person saw;
 * when the note changed since the proposal (or changes while the modal is open) it is the three-way merge, never a
 * silent overwrite. Reject writes nothing. Closing it leaves the note and the proposal exactly as they were.
 */
import { Modal, Notice, Platform, type App } from "obsidian";
import type { AcceptOutcome, NoteProposals, ProposalReview } from "../service/proposals/note-proposals";
import type { VaultChange } from "../vault/gateway";
import { ConfirmModal } from "./confirm-modal";
import { MergeView } from "./merge/merge-view";

export interface ProposalReviewDeps {
	/** The person's side of proposals. */
	proposals: Pick<NoteProposals, "review" | "acceptAsPerson" | "rejectAsPerson">;
	/** Vault change events, so the modal notices edits made while it is open. */
	onVaultChange: (listener: (change: VaultChange) => void) => () => void;
}

export class ProposalReviewModal extends Modal {
	private view: MergeView | null = null;
	private mineRevision: string | null = null;
	private stopWatching: (() => void) | null = null;
	/** Our own accept changes the note too; that change is not news to the person. */
	private deciding = false;
	private closed = false;

	constructor(
		app: App,
		private readonly deps: ProposalReviewDeps,
		private readonly proposalId: string,
	) {
		super(app);
	}

	override onOpen(): void {
		this.modalEl.addClass("revision-guard-merge-modal", "revision-guard-review-modal");
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
		const review = await this.deps.proposals.review(this.proposalId);
		if (this.closed) return;
		if (!review) return this.showMessage("This proposal no longer exists.");
		const { record } = review;
		this.setTitle(`Review ${record.agent}'s proposal for ${record.path}`);
		if (record.status !== "pending")
			return this.showMessage(`This proposal was already ${record.status === "rejected" ? "rejected" : "accepted"}.`);
		if (review.theirs === null)
			return this.showMessage(
				`The proposed text is no longer available: its .bak note (${record.backupPath}) was changed or removed.`,
			);
		this.mineRevision = review.mineRevision;
		this.view = new MergeView(
			this.contentEl,
			{
				notePath: record.path,
				agentName: record.agent,
				// Unchanged since: the proposal against the note now, each of its changes undoable; else the three-way merge.
				base: review.changedSince ? review.base : review.mine,
				mine: review.mine ?? "",
				theirs: review.theirs,
				agentWroteAt: record.time,
				backupPath: record.backupPath,
				mac: Platform.isMacOS === true,
				review: { changedSince: review.changedSince },
			},
			{
				onSave: (text) => this.accept(text),
				onReject: (note) => this.reject(note),
				onCancel: () => this.close(),
				confirm: (message) => new ConfirmModal(this.app, message, "Accept anyway").ask(),
				openBackup: () => this.openPath(record.backupPath),
			},
		);
		this.stopWatching = this.deps.onVaultChange((change) => {
			if (change.path === record.path && !this.deciding)
				void this.refresh(
					"The note changed while you were reviewing, so this is now a three-way merge against " +
						"the new version; your choices were kept where they still apply.",
				);
		});
	}

	private async accept(text: string): Promise<void> {
		this.deciding = true;
		let outcome: AcceptOutcome;
		try {
			outcome = await this.deps.proposals.acceptAsPerson(this.proposalId, { text, against: this.mineRevision });
		} finally {
			this.deciding = false;
		}
		if (outcome.kind === "failed") throw new Error(outcome.message);
		if (outcome.kind === "changed")
			return this.rebase(
				outcome.review,
				"The note changed before your accept could land, so nothing was written. The merge " +
					"was redone against the new version; check it and accept again.",
			);
		new Notice(
			outcome.record.status === "accepted"
				? `Accepted ${outcome.record.agent}'s proposal for ${outcome.record.path}.`
				: `Accepted ${outcome.record.agent}'s proposal for ${outcome.record.path} with your edits.`,
		);
		this.close();
	}

	private async reject(note: string): Promise<void> {
		const outcome = await this.deps.proposals.rejectAsPerson(this.proposalId, note);
		if (outcome.kind === "failed") throw new Error(outcome.message);
		new Notice(`Rejected ${outcome.record.agent}'s proposal for ${outcome.record.path}; the note was not changed.`);
		this.close();
	}

	private async refresh(message: string): Promise<void> {
		const review = await this.deps.proposals.review(this.proposalId);
		if (!review || review.mineRevision === this.mineRevision) return;
		this.rebase(review, message);
	}

	private rebase(review: ProposalReview, message: string): void {
		this.mineRevision = review.mineRevision;
		this.view?.rebase(review.mine ?? "", message);
	}

	private openPath(path: string): void {
		void this.app.workspace.openLinkText(path, "", true).catch((error: unknown) => {
			new Notice(`Could not open ${path}: ${error instanceof Error ? error.message : String(error)}`);
		});
	}

	private showMessage(text: string): void {
		this.contentEl.empty();
		this.contentEl.createEl("p", { text });
	}
}
