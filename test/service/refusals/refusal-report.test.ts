/** The one refusal report (service/refusals/refusal-report.ts): its code, what was kept and the next step, as data. */
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { changeTagOf } from "../../../src/core/revision-tokens";
import { refusalReport, type RefusedFacts } from "../../../src/service/refusals/refusal-report";

const NOW = revisionOf("now\n");
const OLD = revisionOf("old\n");

function facts(overrides: Partial<RefusedFacts> = {}): RefusedFacts {
	return {
		kind: "refused",
		refusal: { reason: "stale", sentRevision: OLD },
		currentRevision: NOW,
		currentSight: "none",
		sentSight: "whole",
		conflict: null,
		backupError: null,
		changes: null,
		mergePreview: null,
		implicit: false,
		...overrides,
	};
}

describe("a refusal report", () => {
	it("hands a revision to retry with only when the answer carried every change since the one sent", () => {
		expect(refusalReport(facts(), "write").next).toEqual({ kind: "reread-and-retry" });
		expect(refusalReport(facts({ currentSight: "whole" }), "write").next).toEqual({
			kind: "retry-with-revision",
			revision: NOW,
		});
		expect(refusalReport(facts(), "write").facts).toMatchObject({ sentRevision: OLD, changeTag: changeTagOf(NOW) });
	});

	it("says to create a note again that is gone, and that a delete of it has nothing left to do", () => {
		expect(refusalReport(facts({ currentRevision: null }), "write").next).toEqual({ kind: "create-again" });
		expect(refusalReport(facts({ currentRevision: null }), "delete").next).toEqual({ kind: "nothing-to-do" });
		const missing = facts({ refusal: { reason: "not-found" }, currentRevision: null });
		expect(refusalReport(missing, "delete")).toMatchObject({ code: "note-not-found", next: { kind: "nothing-to-do" } });
	});

	it("names what was kept, and a conflict record that could not be saved", () => {
		const conflict = {
			id: "c-1",
			path: "a.md",
			reason: "stale" as const,
			sentRevision: OLD,
			currentRevision: NOW,
			proposedRevision: revisionOf("mine\n"),
			backupPath: "a.2026.bak.md",
			agent: "bot",
			time: "2026-11-21T10:15:00.000Z",
			status: "open" as const,
		};
		expect(refusalReport(facts({ conflict }), "write", "disk full").kept).toEqual({
			conflictId: "c-1",
			backupPath: "a.2026.bak.md",
			backupError: null,
			recordError: "disk full",
		});
		expect(refusalReport(facts(), "write").kept).toBeNull();
	});

	it.each([
		[{ reason: "token-required" as const }, "precondition-required", "read-then-retry"],
		[
			{ reason: "malformed-condition" as const, header: "If-Match" as const },
			"malformed-precondition",
			"resend-revision-as-received",
		],
		[{ reason: "empty-body" as const, currentLength: 9 }, "empty-body", "confirm-empty"],
		[{ reason: "note-in-use" as const }, "note-in-use", "retry-when-free"],
		[{ reason: "backup-read-only" as const }, "backup-read-only", "write-the-note-it-belongs-to"],
		[{ reason: "exists" as const }, "note-exists", "reread-and-retry"],
	])("gives %o the code %s and the next step %s", (refusal, code, next) => {
		const report = refusalReport(facts({ refusal }), "write");
		expect(report.code).toBe(code);
		expect(report.next.kind).toBe(next);
	});
});
