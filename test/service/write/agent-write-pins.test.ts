import { describe, expect, it } from "vitest";
import { AgentWritePins } from "../../../src/service/write/agent-write-pins";

describe("AgentWritePins", () => {
	it("pins what the latest writes wrote and replaced, and lets the oldest go past the limit", () => {
		const pins = new AgentWritePins(2, []);
		pins.add("b", "a");
		pins.add("c", "b");
		expect(["a", "b", "c"].filter((revision) => pins.has(revision))).toEqual(["a", "b", "c"]);
		pins.add("d", "c");
		// The write a→b fell out; b is still what c replaced.
		expect(["a", "b", "c", "d"].filter((revision) => pins.has(revision))).toEqual(["b", "c", "d"]);
		pins.add("e", "d");
		expect(["a", "b", "c", "d", "e"].filter((revision) => pins.has(revision))).toEqual(["c", "d", "e"]);
	});

	it("starts from the history's latest writes, newest first, keeping only the limit", () => {
		const pins = new AgentWritePins(2, [
			{ revision: "z", replaced: "y" },
			{ revision: "y", replaced: "x" },
			{ revision: "x", replaced: "w" },
		]);
		expect(["w", "x", "y", "z"].filter((revision) => pins.has(revision))).toEqual(["x", "y", "z"]);
		pins.add("q", undefined);
		expect(["w", "x", "y", "z", "q"].filter((revision) => pins.has(revision))).toEqual(["y", "z", "q"]);
	});

	it("pins nothing with a limit of 0", () => {
		const pins = new AgentWritePins(0, [{ revision: "b", replaced: "a" }]);
		pins.add("c", "b");
		expect(pins.has("a") || pins.has("b") || pins.has("c")).toBe(false);
	});

	it("stays right over many writes (the array of writes is trimmed as it goes)", () => {
		const pins = new AgentWritePins(3, []);
		for (let n = 1; n <= 1000; n++) pins.add(`r${n}`, `r${n - 1}`);
		const pinned = Array.from({ length: 1001 }, (_, n) => `r${n}`).filter((revision) => pins.has(revision));
		expect(pinned).toEqual(["r997", "r998", "r999", "r1000"]);
	});
});
