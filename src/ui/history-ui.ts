/**
 * Everything a person sees of history and undo: the commands, the "agent edits today" status-bar item, and the
 * history and activity modals. The modals answer "still starting" until the host has opened its guard; they arrive
 * with it (history-views.ts), so loading the plugin does not evaluate them.
 */
import { Notice, type App, type Command } from "obsidian";
import { MAX_ACTIVITY } from "../service/history/activity-limit";
import type { PersonNotes } from "../service/notes/person-notes";
import { ActivityStatusBar } from "./activity-status-bar";

/** The modals, opened as the person once the guard is open. */
export interface HistoryViews {
	showHistory(path: string): void;
	showActivity(): void;
}

export class HistoryUi {
	private readonly bar: ActivityStatusBar;
	/** Set while the guard is open. */
	private views: HistoryViews | null = null;

	constructor(
		private readonly app: App,
		statusBarItem: HTMLElement,
	) {
		this.bar = new ActivityStatusBar(statusBarItem, () => this.showActivity());
	}

	/** The commands the plugin adds. */
	commands(): Command[] {
		return [
			{
				id: "show-note-history",
				name: "Show note history",
				checkCallback: (checking) => {
					const file = this.app.workspace.getActiveFile();
					if (!file) return false;
					if (!checking) this.showHistory(file.path);
					return true;
				},
			},
			{ id: "show-agent-activity", name: "Show recent agent activity", callback: () => this.showActivity() },
		];
	}

	/** Follows the guard's agent writes; returns the cleanup for the plugin to register. */
	start(person: PersonNotes, views: HistoryViews): () => void {
		this.views = views;
		// Counted from history once, then one more per new agent revision (the change feed may tell a change more than
		// once): never a scan of every note's history per write.
		let writes = person
			.activity(MAX_ACTIVITY)
			.map((write) => ({ key: `${write.path}\n${write.revision}`, time: write.time }));
		const show = () =>
			this.bar.update(
				writes.map((write) => write.time),
				person.now(),
			);
		show();
		const stop = person.onNoteChanged((change) => {
			const key = `${change.path}\n${change.revision ?? ""}`;
			if (change.by?.kind !== "agent" || writes.some((write) => write.key === key)) return;
			writes = [{ key, time: new Date(person.now()).toISOString() }, ...writes].slice(0, MAX_ACTIVITY);
			show();
		});
		return () => {
			stop();
			this.views = null;
		};
	}

	private showHistory(path: string): void {
		if (!this.views) return void new Notice("The agent API is still starting.");
		this.views.showHistory(path);
	}

	showActivity(): void {
		if (!this.views) return void new Notice("The agent API is still starting.");
		this.views.showActivity();
	}
}
