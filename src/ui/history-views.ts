/**
 * The history and activity modals, with Restore and Revert as the person. Evaluated when the host starts (from
 * host/plugin-start-up.ts), not while Obsidian loads the plugin: they bring the merge engine with them.
 */
import type { App } from "obsidian";
import type { PersonNotes } from "../service/notes/person-notes";
import { AgentActivityModal } from "./activity-modal";
import { NoteHistoryModal } from "./history-modal";
import type { HistoryViews } from "./history-ui";
import { GuardUndo } from "./undo-actions";

export function historyViews(app: App, person: PersonNotes): HistoryViews {
	const undo: GuardUndo = new GuardUndo(app, person, (path) => views.showHistory(path));
	const views: HistoryViews = {
		showHistory: (path) => new NoteHistoryModal(app, undo, path).open(),
		showActivity: () => new AgentActivityModal(app, undo).open(),
	};
	return views;
}
