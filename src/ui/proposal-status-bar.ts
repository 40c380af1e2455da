/** The status-bar item for proposals: how many wait for the person (hidden while none do); a click lists them. */

export class ProposalStatusBar {
	constructor(
		private readonly element: HTMLElement,
		private readonly onClick: () => void,
	) {
		element.addClass("revision-guard-status", "revision-guard-proposal-status", "revision-guard-hidden");
		element.setAttr("role", "button");
		element.setAttr("tabindex", "0");
		element.setAttr("aria-label", "Show proposals from agents");
		element.addEventListener("click", () => this.onClick());
		element.addEventListener("keydown", (event) => {
			if (event.key !== "Enter" && event.key !== " ") return;
			event.preventDefault();
			this.onClick();
		});
	}

	update(pending: number): void {
		this.element.setText(pending === 1 ? "1 proposal" : `${pending} proposals`);
		this.element.toggleClass("revision-guard-hidden", pending === 0);
		this.element.toggleClass("revision-guard-status-open", pending > 0);
	}
}
