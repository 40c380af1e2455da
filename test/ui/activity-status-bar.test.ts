// @vitest-environment happy-dom
/** The agent activity status-bar item: hidden until an agent wrote today, then the count; a click or a key opens the list. */
import { describe, expect, it, vi } from "vitest";
import "../obsidian-stub";
import { ActivityStatusBar } from "../../src/ui/activity-status-bar";

const NOW = new Date(2026, 10, 23, 15, 0, 0).getTime();
const at = (hours: number) => new Date(2026, 10, 23, hours, 0, 0).toISOString();

describe("the agent activity status bar", () => {
	it("stays hidden while no agent wrote today, and counts only today's writes", () => {
		const element = document.createElement("div");
		const bar = new ActivityStatusBar(element, () => undefined);
		expect(element.classList.contains("revision-guard-hidden")).toBe(true);
		bar.update([new Date(2026, 10, 22, 23, 0, 0).toISOString()], NOW);
		expect(element.classList.contains("revision-guard-hidden")).toBe(true);
		bar.update([at(9)], NOW);
		expect(element.textContent).toBe("1 agent edit today");
		bar.update([at(9), at(14), new Date(2026, 10, 22, 23, 0, 0).toISOString()], NOW);
		expect(element.textContent).toBe("2 agent edits today");
		expect(element.classList.contains("revision-guard-hidden")).toBe(false);
		expect(element.getAttribute("aria-label")).toBe("Show recent agent activity");
	});

	it("opens the activity list on a click, Enter or Space", () => {
		const element = document.createElement("div");
		const onClick = vi.fn();
		new ActivityStatusBar(element, onClick);
		element.click();
		element.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
		element.dispatchEvent(new KeyboardEvent("keydown", { key: " " }));
		element.dispatchEvent(new KeyboardEvent("keydown", { key: "a" }));
		expect(onClick).toHaveBeenCalledTimes(3);
	});
});
