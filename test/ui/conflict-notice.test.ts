// @vitest-environment happy-dom
/** The notice shown when an agent's write is refused, with or without a Resolve button. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Notice } from "../obsidian-stub";
import type { ConflictRecord } from "../../src/core/conflicts";
import { showConflictNotice } from "../../src/ui/conflict-notice";

function record(overrides: Partial<ConflictRecord> = {}): ConflictRecord {
	return {
		id: "c-20261121-101500-abcd",
		path: "Projects/Plan.md",
		reason: "stale",
		sentRevision: "sent",
		currentRevision: "current",
		proposedRevision: "proposed",
		backupPath: "Projects/Plan.20261121-101500.bak.md",
		agent: "claude-code",
		time: "2026-11-21T10:15:00.000Z",
		status: "open",
		...overrides,
	};
}

const KEPT_MESSAGE =
	'Refused a stale write to "Projects/Plan.md" from claude-code. Its version is kept in "Projects/Plan.20261121-101500.bak.md".';

/** The notice shown last, as the stub recorded it. */
function lastNotice(): Notice {
	expect(Notice.shown).toHaveLength(1);
	return Notice.shown[0]!;
}

function buttons(notice: Notice): HTMLButtonElement[] {
	return [...(notice.fragment?.querySelectorAll("button") ?? [])];
}

beforeEach(() => {
	Notice.shown.length = 0;
});

describe("the conflict notice", () => {
	it("names the note, the agent and where the refused version is kept", () => {
		showConflictNotice(record(), null);
		const notice = lastNotice();
		expect(notice.message).toBe(KEPT_MESSAGE);
		expect(notice.duration).toBe(10_000);
		expect(notice.fragment).toBeNull();
	});

	it("says the agent's version could not be kept when there is no .bak", () => {
		showConflictNotice(record({ backupPath: null, path: "Inbox.md", agent: "nightly-job" }), null);
		const message = lastNotice().message;
		expect(message).toBe(
			'Refused a stale write to "Inbox.md" from nightly-job. Its version could not be kept; the agent was told.',
		);
		expect(message).not.toContain(".bak");
	});

	it("offers a Resolve button that calls back once per click", () => {
		const onResolve = vi.fn();
		const returned = showConflictNotice(record(), onResolve);
		const notice = lastNotice();
		expect(returned).toBe(notice);
		expect(notice.duration).toBe(15_000);
		expect(notice.fragment?.querySelector("div")?.textContent).toBe(KEPT_MESSAGE);
		expect(buttons(notice).map((button) => button.textContent)).toEqual(["Resolve"]);
		expect(onResolve).not.toHaveBeenCalled();
		expect(notice.hidden).toBe(false);
		buttons(notice)[0]!.click();
		expect(onResolve).toHaveBeenCalledTimes(1);
		// The merge window takes over; the notice does not stay up behind it.
		expect(notice.hidden).toBe(true);
	});

	it("keeps the could-not-be-kept wording next to the Resolve button", () => {
		showConflictNotice(record({ backupPath: null }), () => undefined);
		const notice = lastNotice();
		expect(notice.fragment?.querySelector("div")?.textContent).toContain("Its version could not be kept");
		expect(buttons(notice)).toHaveLength(1);
	});

	it("says another program dropped changes, and where they are kept, for a save made outside", () => {
		showConflictNotice(
			record({ reason: "outside-save", source: "outside", agent: "another program" }),
			() => undefined,
		);
		expect(lastNotice().fragment?.querySelector("div")?.textContent).toBe(
			'Another program saved "Projects/Plan.md" without the changes saved before it. What it dropped is kept in "Projects/Plan.20261121-101500.bak.md".',
		);
		expect(buttons(lastNotice()).map((button) => button.textContent)).toEqual(["Resolve"]);
	});

	it("says another program saved over the person's typing, where its text is kept, and offers the merge view", () => {
		const onResolve = vi.fn();
		showConflictNotice(
			record({ reason: "outside-over-typing", source: "outside", agent: "another program" }),
			onResolve,
		);
		const notice = lastNotice();
		expect(notice.fragment?.querySelector("div")?.textContent).toBe(
			'Another program saved "Projects/Plan.md" while you were typing, changing the same lines. Its version is kept in "Projects/Plan.20261121-101500.bak.md"; your typing stays as it is.',
		);
		buttons(notice)[0]!.click();
		expect(onResolve).toHaveBeenCalledTimes(1);
	});

	it("never says an outside save was refused, even when its .bak could not be written", () => {
		showConflictNotice(
			record({ reason: "outside-over-typing", source: "outside", agent: "another program", backupPath: null }),
			null,
		);
		const message = lastNotice().message;
		expect(message).toBe(
			'Another program saved "Projects/Plan.md" while you were typing, changing the same lines. Its version could not be saved as a .bak; resolve now to keep its changes.',
		);
		expect(message).not.toContain("Refused");
	});
});
