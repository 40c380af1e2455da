/** The notice a person sees when an agent's write is refused, with a button to resolve it right away. */
import { Notice } from "obsidian";
import type { ConflictRecord } from "../core/conflicts";

function noticeText(record: ConflictRecord): string {
	if (record.reason === "outside-over-typing") {
		// Nothing was refused: the program's save is on disk until the person's autosave writes their typing over it.
		const kept = record.backupPath
			? ` Its version is kept in "${record.backupPath}"; your typing stays as it is.`
			: " Its version could not be saved as a .bak; resolve now to keep its changes.";
		return `Another program saved "${record.path}" while you were typing, changing the same lines.${kept}`;
	}
	if (record.source === "outside") {
		const kept = record.backupPath
			? ` What it dropped is kept in "${record.backupPath}".`
			: " What it dropped is in the note's history.";
		return `Another program saved "${record.path}" without the changes saved before it.${kept}`;
	}
	const kept = record.backupPath
		? ` Its version is kept in "${record.backupPath}".`
		: " Its version could not be kept; the agent was told.";
	return `Refused a stale write to "${record.path}" from ${record.agent}.${kept}`;
}

export function showConflictNotice(record: ConflictRecord, onResolve: (() => void) | null): Notice {
	const message = noticeText(record);
	if (!onResolve) return new Notice(message, 10_000);
	let notice: Notice | null = null;
	const fragment = createFragment((body) => {
		body.createDiv({ text: message });
		const button = body.createEl("button", { text: "Resolve", cls: "revision-guard-notice-button mod-cta" });
		button.addEventListener("click", (event) => {
			event.stopPropagation();
			// The merge window takes over: the notice has done its job.
			notice?.hide();
			onResolve();
		});
	});
	notice = new Notice(fragment, 15_000);
	return notice;
}
