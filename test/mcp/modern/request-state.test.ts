/** The sealed requestState: it opens only on this host, unchanged, in time, for the caller and call it was issued for. */
import { describe, expect, it } from "vitest";
import { argumentsDigest, RequestStates, type AskedAbout } from "../../../src/mcp/modern/request-state";

const ASKED: AskedAbout = {
	owner: "key-1",
	tool: "write_note",
	arguments: argumentsDigest({ path: "Plan.md", content: "x\n", revision: "r1" }),
	path: "Plan.md",
	conflictId: "c1",
	sentRevision: "r1",
	currentRevision: "r2",
	proposedRevision: "r3",
	choices: ["keep", "take"],
};
const CALL = { owner: "key-1", tool: "write_note", arguments: ASKED.arguments };

describe("RequestStates", () => {
	it("opens what it sealed, for the same caller and call, until it expires", () => {
		let now = 1_000;
		const states = new RequestStates(() => now, 60_000);
		const sealed = states.seal(ASKED);
		expect(states.open(sealed, CALL)).toEqual({ ok: true, state: { ...ASKED, expires: 61_000 } });
		now = 60_999;
		expect(states.open(sealed, CALL).ok).toBe(true);
		now = 61_000;
		expect(states.open(sealed, CALL)).toEqual({ ok: false, why: "expired" });
	});

	it("refuses a state whose facts or MAC changed, or that another host (or a restart) sealed", () => {
		const states = new RequestStates(() => 0);
		const sealed = states.seal(ASKED);
		const [version, payload, mac] = sealed.split(".") as [string, string, string];
		const moved = Buffer.from(
			JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), currentRevision: "r9" }),
		).toString("base64url");
		expect(states.open(`${version}.${moved}.${mac}`, CALL)).toEqual({ ok: false, why: "unverified" });
		// Another last character (a MAC of 32 bytes ends in one of 16: "A" was sometimes the one it already had).
		const otherLast = mac.endsWith("A") ? "E" : "A";
		expect(states.open(`${version}.${payload}.${mac.slice(0, -1)}${otherLast}`, CALL)).toEqual({
			ok: false,
			why: "unverified",
		});
		expect(states.open(`${version}.${payload}`, CALL)).toEqual({ ok: false, why: "unverified" });
		expect(states.open("", CALL)).toEqual({ ok: false, why: "unverified" });
		expect(new RequestStates(() => 0).open(sealed, CALL)).toEqual({ ok: false, why: "unverified" });
	});

	it("refuses a state brought by another key or for another call", () => {
		const states = new RequestStates(() => 0);
		const sealed = states.seal(ASKED);
		expect(states.open(sealed, { ...CALL, owner: "key-2" })).toEqual({ ok: false, why: "other-caller" });
		expect(states.open(sealed, { ...CALL, tool: "append_note" })).toEqual({ ok: false, why: "other-call" });
		expect(
			states.open(sealed, { ...CALL, arguments: argumentsDigest({ path: "Plan.md", content: "y\n", revision: "r1" }) }),
		).toEqual({ ok: false, why: "other-call" });
	});

	it("digests arguments whatever order their keys come in", () => {
		expect(argumentsDigest({ a: 1, b: { c: [1, "2"], d: null } })).toBe(
			argumentsDigest({ b: { d: null, c: [1, "2"] }, a: 1 }),
		);
		expect(argumentsDigest({ a: 1 })).not.toBe(argumentsDigest({ a: "1" }));
	});
});
