/** The status-bar item for agent activity: how many agent writes landed today; a click lists the recent writes. */

export class ActivityStatusBar {
	constructor(
		private readonly element: HTMLElement,
		private readonly onClick: () => void,
	) {
		element.addClass("revision-guard-status", "revision-guard-activity-status");
		element.setAttr("role", "button");
		element.setAttr("tabindex", "0");
		element.setAttr("aria-label", "Show recent agent activity");
		element.addEventListener("click", () => this.onClick());
		element.addEventListener("keydown", (event) => {
			if (event.key !== "Enter" && event.key !== " ") return;
			event.preventDefault();
			this.onClick();
		});
		element.addClass("revision-guard-hidden");
	}

	/** Shows the count of agent writes since local midnight (hidden while there are none, to stay out of the way). */
	update(writeTimes: readonly string[], now: number): void {
		const midnight = new Date(now).setHours(0, 0, 0, 0);
		const count = writeTimes.filter((time) => Date.parse(time) >= midnight).length;
		this.element.setText(count === 1 ? "1 agent edit today" : `${count} agent edits today`);
		this.element.toggleClass("revision-guard-hidden", count === 0);
	}
}
