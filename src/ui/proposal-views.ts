/**
 * The proposal list and review modals. Evaluated when the host starts (from host/plugin-start-up.ts), not while
 * Obsidian loads the plugin: the review brings the merge engine with it.
 */
import type { App } from "obsidian";
import type { PersonNotes } from "../service/notes/person-notes";
import { ProposalListModal } from "./proposal-list-modal";
import { ProposalReviewModal } from "./proposal-review-modal";
import type { ProposalViews } from "./proposal-ui";

export function proposalViews(app: App, person: PersonNotes): ProposalViews {
	const views: ProposalViews = {
		showList: () =>
			new ProposalListModal(app, person.proposals, {
				openPath: (path) => void app.workspace.openLinkText(path, "", false),
				review: (id) => views.review(id),
			}).open(),
		review: (id) =>
			new ProposalReviewModal(
				app,
				{ proposals: person.proposals, onVaultChange: (listener) => person.onVaultChange(listener) },
				id,
			).open(),
	};
	return views;
}
