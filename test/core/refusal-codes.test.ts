/** One refusal vocabulary: every refusal the writer decides has one code, and every code is a served problem type. */
import { describe, expect, it } from "vitest";
import type { Refusal } from "../../src/core/guard";
import type { PatchFailure } from "../../src/core/patch";
import { inapplicableCode, refusalCode } from "../../src/core/refusal-codes";
import { LRA_ERROR_CODES } from "../../src/http/lra-error-codes";
import { lraFields, PROBLEM_TYPES } from "../../src/http/problems";

const REFUSALS: [Refusal, string][] = [
	[{ reason: "token-required" }, "precondition-required"],
	[{ reason: "token-required", sent: "change-tag" }, "precondition-required"],
	[{ reason: "stale", sentRevision: "a" }, "stale-revision"],
	[{ reason: "exists" }, "note-exists"],
	[{ reason: "read-expired", sentRevision: "a" }, "read-expired"],
	[{ reason: "content-loss", currentLength: 200, newLength: 1 }, "content-loss"],
	[{ reason: "empty-body", currentLength: 20 }, "empty-body"],
	[{ reason: "backup-read-only" }, "backup-read-only"],
	[{ reason: "note-in-use" }, "note-in-use"],
	[{ reason: "not-found" }, "note-not-found"],
	[{ reason: "malformed-condition", header: "If-Match" }, "malformed-precondition"],
];

describe("refusal codes", () => {
	it.each(REFUSALS)("names %o %s, a problem type served at /problems/{code}", (refusal, code) => {
		expect(refusalCode(refusal)).toBe(code);
		expect(Object.keys(PROBLEM_TYPES)).toContain(code);
	});

	it("names a patch that does not apply by what went wrong, and any edit that does not apply edit-not-applied", () => {
		const reasons: PatchFailure[] = [
			"target-not-found",
			"ambiguous-target",
			"invalid-target",
			"invalid-value",
			"invalid-frontmatter",
		];
		expect(reasons.map((reason) => inapplicableCode(reason, "patch"))).toEqual([
			"target-not-found",
			"invalid-patch",
			"invalid-patch",
			"invalid-patch",
			"invalid-frontmatter",
		]);
		for (const reason of reasons) expect(inapplicableCode(reason, "edit")).toBe("edit-not-applied");
		for (const reason of reasons) expect(Object.keys(PROBLEM_TYPES)).toContain(inapplicableCode(reason, "patch"));
	});
});

describe("the Local REST API's errorCode of each problem type", () => {
	it("is LRA's own code where it has one, else the status × 100, and agrees with the status", () => {
		for (const name of Object.keys(PROBLEM_TYPES) as (keyof typeof PROBLEM_TYPES)[]) {
			const { errorCode } = lraFields(name, "");
			expect(Math.floor(errorCode / 100), name).toBe(PROBLEM_TYPES[name].status);
		}
		expect(lraFields("unauthorized", "").errorCode).toBe(40101);
		expect(lraFields("stale-revision", "").errorCode).toBe(41200);
		expect(Object.keys(LRA_ERROR_CODES).every((name) => name in PROBLEM_TYPES)).toBe(true);
	});

	it("starts the message with what happened and the next step, then the detail", () => {
		const { message } = lraFields("precondition-required", "The detail.");
		expect(message).toBe(
			"A revision token is required. Read the note first (GET), then send its ETag in an If-Match header with your update. The detail.",
		);
		// cyanheads' obsidian-mcp-server shows the first 200 characters: the lead must fit in them.
		for (const name of Object.keys(PROBLEM_TYPES) as (keyof typeof PROBLEM_TYPES)[])
			expect(lraFields(name, "").message.trim().length, name).toBeLessThanOrEqual(200);
	});
});
