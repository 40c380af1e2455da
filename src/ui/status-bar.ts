/** The status-bar item: how many conflicts are open; a click (or Enter or Space, from the keyboard) lists them. */
import type { PersonConflicts } from "../service/notes/person-notes";

export class ConflictStatusBar {
	constructor(
		private readonly element: HTMLElement,
		private readonly onClick: () => void,
	) {
		element.addClass("revision-guard-status");
		element.setAttr("role", "button");
		// Reachable with Tab, and pressed with Enter or Space, like any button.
		element.setAttr("tabindex", "0");
		element.addEventListener("click", () => this.onClick());
		element.addEventListener("keydown", (event) => {
			if (event.key !== "Enter" && event.key !== " ") return;
			event.preventDefault();
			this.onClick();
		});
	}

	update(conflicts: Pick<PersonConflicts, "openCount"> | null): void {
		const count = conflicts?.openCount() ?? 0;
		this.element.setText(count === 1 ? "1 conflict" : `${count} conflicts`);
		this.element.setAttr(
			"aria-label",
			count === 0 ? "No open conflicts from agents" : "Show open conflicts from agents",
		);
		this.element.toggleClass("revision-guard-status-open", count > 0);
	}
}
