/**
 * What the history and activity modals do, as the person: Restore and Revert through the one guarded writer, each
 * replacing exactly the note revision the modal showed (so a note that moved on is never overwritten), with a
 * sentence for every outcome. A revert that needs merging opens the revert merge modal.
 */
import type { App } from "obsidian";
import type { ActivityEntry } from "../service/history/agent-activity";
import type { HistoryPage, RevisionDetail } from "../service/history/note-history";
import type { PersonNotes } from "../service/notes/person-notes";
import { ConfirmModal } from "./confirm-modal";
import { RevertMergeModal } from "./revert-merge-modal";
import { restoreMessage, revertMessage } from "./undo-messages";

export interface UndoActions {
	history(path: string, offset: number): Promise<HistoryPage | null>;
	detail(path: string, revision: string): Promise<RevisionDetail>;
	activity(): ActivityEntry[];
	/** Restores `revision`, replacing exactly `seen` (null: the note is gone). Resolves to what happened, as a sentence. */
	restore(path: string, revision: string, seen: string | null): Promise<string>;
	/** Reverts the agent write that produced `revision`; null when a merge modal opened instead. */
	revert(path: string, revision: string, seen: string | null): Promise<string | null>;
	confirm(message: string, yes: string): Promise<boolean>;
	openNote(path: string): void;
	showHistory(path: string): void;
}

export const HISTORY_PAGE_SIZE = 20;

export class GuardUndo implements UndoActions {
	constructor(
		private readonly app: App,
		private readonly person: PersonNotes,
		private readonly showHistoryOf: (path: string) => void,
	) {}

	history(path: string, offset: number): Promise<HistoryPage | null> {
		return this.person.history(path, offset, HISTORY_PAGE_SIZE);
	}

	detail(path: string, revision: string): Promise<RevisionDetail> {
		return this.person.revisionDetail(path, revision);
	}

	activity(): ActivityEntry[] {
		return this.person.activity(100);
	}

	async restore(path: string, revision: string, seen: string | null): Promise<string> {
		const outcome = await this.person.restore(path, revision, seen);
		return restoreMessage(path, outcome);
	}

	async revert(path: string, revision: string, seen: string | null): Promise<string | null> {
		const outcome = await this.person.revert(path, revision, seen);
		if (outcome.kind !== "needs-merge") return revertMessage(path, outcome);
		new RevertMergeModal(this.app, this.person, outcome.sides).open();
		return null;
	}

	confirm(message: string, yes: string): Promise<boolean> {
		return new ConfirmModal(this.app, message, yes).ask();
	}

	openNote(path: string): void {
		void this.app.workspace.openLinkText(path, "", false);
	}

	showHistory(path: string): void {
		this.showHistoryOf(path);
	}
}
