/** The notice a person sees when an agent proposes a change, with a button to review it right away. */
import { Notice } from "obsidian";
import type { ProposalRecord } from "../core/proposals";

export function showProposalNotice(record: ProposalRecord, onReview: () => void): Notice {
	const message = `${record.agent} proposes a change to "${record.path}". Nothing was written; it waits for you.`;
	let notice: Notice | null = null;
	const fragment = createFragment((body) => {
		body.createDiv({ text: message });
		const button = body.createEl("button", { text: "Review", cls: "revision-guard-notice-button mod-cta" });
		button.addEventListener("click", (event) => {
			event.stopPropagation();
			notice?.hide();
			onReview();
		});
	});
	notice = new Notice(fragment, 15_000);
	return notice;
}
