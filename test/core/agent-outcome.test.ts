import { describe, expect, it } from "vitest";
import { agentTakenOf } from "../../src/core/agent-outcome";

const base = "a\nb\nc\nd\ne\n";
const mine = "a\nB by you\nc\nd\ne\n";
const theirs = "a\nb\nc\nd\nE by agent\n";

describe("agentTakenOf", () => {
	it("is whole when the result is the proposal", () => {
		expect(agentTakenOf({ base, mine, theirs, result: theirs })).toBe("whole");
	});
	it("is whole when every agent change sits on top of the person's changes", () => {
		expect(agentTakenOf({ base, mine, theirs, result: "a\nB by you\nc\nd\nE by agent\n" })).toBe("whole");
	});
	it("is none when the result keeps the person's note", () => {
		expect(agentTakenOf({ base, mine, theirs, result: mine })).toBe("none");
	});
	it("is none when no agent change survived, even with other edits", () => {
		expect(agentTakenOf({ base, mine, theirs, result: "a\nB by you, again\nc\nd\ne\n" })).toBe("none");
	});
	it("is partial when some agent changes survived", () => {
		const twoChanges = "A by agent\nb\nc\nd\nE by agent\n";
		expect(agentTakenOf({ base, mine, theirs: twoChanges, result: "A by agent\nB by you\nc\nd\ne\n" })).toBe("partial");
	});
	it("falls back to comparing texts when the base is gone", () => {
		expect(agentTakenOf({ base: null, mine, theirs, result: theirs })).toBe("whole");
		expect(agentTakenOf({ base: null, mine, theirs, result: mine })).toBe("none");
		expect(agentTakenOf({ base: null, mine, theirs, result: "other\n" })).toBe("partial");
	});
	it("is whole when the person's text sits beside the agent's in the same lines, or on the line next to it", () => {
		expect(agentTakenOf({ base: "x\n", mine: "x mine\n", theirs: "x agent\n", result: "x mine\nx agent\n" })).toBe(
			"whole",
		);
		expect(agentTakenOf({ base: "a\nb\n", mine: "a\nB\n", theirs: "A\nb\n", result: "A\nB\n" })).toBe("whole");
	});
	it("is partial when an agent change next to the person's survived and another did not", () => {
		expect(
			agentTakenOf({
				base,
				mine,
				theirs: "A by agent\nb\nc\nd\nE by agent\n",
				result: "A by agent\nB by you\nc\nd\ne\n",
			}),
		).toBe("partial");
	});
	it("counts newly typed text where the agent changed lines as partly taken, and the person's or the base's text as not taken", () => {
		const sides = { base: "one\ntwo\n", mine: "one\ntwo (you)\n", theirs: "one\ntwo (agent)\n" };
		expect(agentTakenOf({ ...sides, result: "one\ntwo (both of us)\n" })).toBe("partial");
		expect(agentTakenOf({ ...sides, result: "one\ntwo (you)\n" })).toBe("none");
		expect(agentTakenOf({ ...sides, result: "one\ntwo\n" })).toBe("none");
	});
	it("is partial when conflicts were saved undecided, and none when the agent changed nothing", () => {
		expect(agentTakenOf({ base, mine, theirs, result: theirs, unresolved: true })).toBe("partial");
		expect(agentTakenOf({ base, mine, theirs: base, result: mine })).toBe("none");
	});
});
