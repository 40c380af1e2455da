// @vitest-environment happy-dom
/** The status-bar item: the open-conflict count, its styling and its click. */
import { describe, expect, it, vi } from "vitest";
import "../obsidian-stub";
import { type ConflictRecord } from "../../src/core/conflicts";
import { ConflictLog } from "../../src/service/stores/conflict-log";
import { conflictRecord } from "../helpers/conflict-records";
import { ConflictStatusBar } from "../../src/ui/status-bar";

const record = conflictRecord;

function logWith(...records: ConflictRecord[]): ConflictLog {
	const log = new ConflictLog();
	for (const item of records) log.add(item);
	return log;
}

function makeBar(onClick: () => void = () => undefined): { element: HTMLElement; bar: ConflictStatusBar } {
	const element = document.createElement("div");
	return { element, bar: new ConflictStatusBar(element, onClick) };
}

describe("the conflict status bar", () => {
	it("says 0 conflicts before the guard is ready, unstyled", () => {
		const { element, bar } = makeBar();
		bar.update(null);
		expect(element.textContent).toBe("0 conflicts");
		expect(element.classList.contains("revision-guard-status")).toBe(true);
		expect(element.classList.contains("revision-guard-status-open")).toBe(false);
		expect(element.getAttribute("aria-label")).toBe("No open conflicts from agents");
		expect(element.getAttribute("role")).toBe("button");
	});

	it.each([
		[0, "0 conflicts"],
		[1, "1 conflict"],
		[2, "2 conflicts"],
		[12, "12 conflicts"],
	])("counts %i open conflicts as %j", (count, text) => {
		const { element, bar } = makeBar();
		bar.update(logWith(...Array.from({ length: count }, (_, i) => record(`c${i}`))));
		expect(element.textContent).toBe(text);
		expect(element.classList.contains("revision-guard-status-open")).toBe(count > 0);
		expect(element.getAttribute("aria-label")).toBe(
			count > 0 ? "Show open conflicts from agents" : "No open conflicts from agents",
		);
	});

	it("counts only open conflicts, not resolved or dismissed ones", () => {
		const { element, bar } = makeBar();
		bar.update(
			logWith(record("a"), record("b", { status: "dismissed" }), record("c", { status: "resolved" }), record("d")),
		);
		expect(element.textContent).toBe("2 conflicts");
	});

	it("drops the open styling when the last conflict is dismissed", () => {
		const { element, bar } = makeBar();
		const log = logWith(record("a"));
		bar.update(log);
		expect(element.classList.contains("revision-guard-status-open")).toBe(true);
		log.setStatus("a", "dismissed", "2026-11-21T11:00:00.000Z");
		bar.update(log);
		expect(element.textContent).toBe("0 conflicts");
		expect(element.classList.contains("revision-guard-status-open")).toBe(false);
	});

	it("can be reached with Tab and pressed with Enter or Space, like a button", () => {
		const onClick = vi.fn();
		const { element } = makeBar(onClick);
		expect(element.getAttribute("tabindex")).toBe("0");
		for (const key of ["Enter", " ", "a"]) element.dispatchEvent(new KeyboardEvent("keydown", { key }));
		expect(onClick).toHaveBeenCalledTimes(2);
	});

	it("calls back on each click", () => {
		const onClick = vi.fn();
		const { element } = makeBar(onClick);
		expect(onClick).not.toHaveBeenCalled();
		element.click();
		element.click();
		expect(onClick).toHaveBeenCalledTimes(2);
	});
});
