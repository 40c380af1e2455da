/** Everything a person sees about conflicts: the notice or modal when one arrives, the list, the status bar. */
import type { App } from "obsidian";
import type { ConflictRecord } from "../core/conflicts";
import type { PersonNotes } from "../service/notes/person-notes";
import type { RevisionGuardSettings } from "../settings";
import { ConflictListModal } from "./conflict-list-modal";
import { showConflictNotice } from "./conflict-notice";
import { MergeModal } from "./merge-modal";
import type { ConflictStatusBar } from "./status-bar";

export class ConflictUi {
	constructor(
		private readonly app: App,
		private readonly person: PersonNotes,
		private readonly settings: () => RevisionGuardSettings,
		private readonly statusBar: ConflictStatusBar,
	) {}

	/** Follows the conflict log; returns the unsubscribe function for the plugin to register. */
	start(): () => void {
		this.statusBar.update(this.person.conflicts);
		return this.person.conflicts.onChange((record) => {
			this.statusBar.update(this.person.conflicts);
			if (record.status === "open" && record.resolvedAt === undefined) this.announce(record);
		});
	}

	/** A new conflict: open the merge modal, show a notice with a Resolve button, or only count it, as set. */
	announce(record: ConflictRecord): void {
		switch (this.settings().conflictAction) {
			case "open":
				this.openMerge(record.id);
				break;
			case "notice":
				showConflictNotice(record, () => this.openMerge(record.id));
				break;
			case "queue":
				break;
		}
	}

	openMerge(id: string): void {
		new MergeModal(
			this.app,
			{ resolver: this.person.conflicts, onVaultChange: (listener) => this.person.onVaultChange(listener) },
			id,
		).open();
	}

	showList(): void {
		new ConflictListModal(this.app, this.person.conflicts, {
			openPath: (path) => void this.app.workspace.openLinkText(path, "", false),
			resolve: (id) => this.openMerge(id),
			dismiss: (id) => this.person.conflicts.dismiss(id),
		}).open();
	}
}
