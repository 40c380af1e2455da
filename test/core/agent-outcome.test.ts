import { describe, expect, it } from "vitest";
import { agentTakenOf } from "../../src/core/agent-outcome";

const base = "a\nb\nc\nd\ne\n";
const mine = "a\nB by you\nc\nd\ne\n";
const theirs = "a\nb\nc\nd\nE by agent\n";

describe("agentTakenOf", () => {
	it("is whole when the result is the proposal", () => {
		expect(agentTakenOf(base, mine, theirs, theirs)).toBe("whole");
	});
	it("is whole when every agent change sits on top of the person's changes", () => {
		expect(agentTakenOf(base, mine, theirs, "a\nB by you\nc\nd\nE by agent\n")).toBe("whole");
	});
	it("is none when the result keeps the person's note", () => {
		expect(agentTakenOf(base, mine, theirs, mine)).toBe("none");
	});
	it("is none when no agent change survived, even with other edits", () => {
		expect(agentTakenOf(base, mine, theirs, "a\nB by you, again\nc\nd\ne\n")).toBe("none");
	});
	it("is partial when some agent changes survived", () => {
		const twoChanges = "A by agent\nb\nc\nd\nE by agent\n";
		expect(agentTakenOf(base, mine, twoChanges, "A by agent\nB by you\nc\nd\ne\n")).toBe("partial");
	});
	it("falls back to comparing texts when the base is gone", () => {
		expect(agentTakenOf(null, mine, theirs, theirs)).toBe("whole");
		expect(agentTakenOf(null, mine, theirs, mine)).toBe("none");
		expect(agentTakenOf(null, mine, theirs, "other\n")).toBe("partial");
	});
});
