/** The notice a person sees when an agent's write is refused, with a button to resolve it right away. */
import { Notice } from "obsidian";
import type { ConflictRecord } from "../core/conflicts";

function noticeText(record: ConflictRecord): string {
	if (record.source === "outside") {
		if (record.reason === "outside-over-typing") return `Another program saved "${record.path}" while you were typing, over your typing.${record.backupPath ? ` Its version is kept in "${record.backupPath}".` : ""}`;
		const kept = record.backupPath ? ` What it dropped is kept in "${record.backupPath}".` : " What it dropped is in the note's history.";
		return `Another program saved "${record.path}" without the changes saved before it.${kept}`;
	}
	const kept = record.backupPath ? ` Its version is kept in "${record.backupPath}".` : " Its version could not be kept; the agent was told.";
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
