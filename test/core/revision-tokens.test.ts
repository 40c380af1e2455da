import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decideWrite, type GuardRequest } from "../../src/core/guard";
import { parseEntityTagCondition, revisionOf } from "../../src/core/revision";
import {
	changeTagOf,
	etagFor,
	noneMatchSight,
	partTokenOf,
	proofIn,
	revisionField,
	sentTokenKind,
	tokenFor,
	tokenKind,
} from "../../src/core/revision-tokens";

const NOTE = "# Plan\n\n## Tasks\n\n- one\n";
const REVISION = revisionOf(NOTE);
const tags = (raw: string) => parseEntityTagCondition(raw);

describe("the forms of a revision", () => {
	it("derives a part token and a change tag that differ from the revision and from each other, and name it alone", () => {
		fc.assert(
			fc.property(fc.string(), fc.string(), (a, b) => {
				const [ra, rb] = [revisionOf(a), revisionOf(b)];
				expect(partTokenOf(ra)).not.toBe(changeTagOf(ra));
				expect(partTokenOf(ra).endsWith(ra)).toBe(false);
				expect(changeTagOf(ra)).not.toContain(ra);
				if (a !== b) expect(partTokenOf(ra)).not.toBe(partTokenOf(rb));
			}),
		);
		expect(partTokenOf(REVISION)).toMatch(/^part\.[A-Za-z0-9_-]{43}$/);
		expect(changeTagOf(REVISION)).toMatch(/^tag\.[A-Za-z0-9_-]{43}$/);
	});

	it("hands each sight its form, as a JSON value and as an ETag (a change tag is weak)", () => {
		expect(tokenFor(REVISION, "whole")).toBe(REVISION);
		expect(tokenFor(REVISION, "part")).toBe(partTokenOf(REVISION));
		expect(tokenFor(REVISION, "none")).toBe(changeTagOf(REVISION));
		expect(etagFor(REVISION, "whole")).toBe(`"${REVISION}"`);
		expect(etagFor(REVISION, "part")).toBe(`"${partTokenOf(REVISION)}"`);
		expect(etagFor(REVISION, "none")).toBe(`W/"${changeTagOf(REVISION)}"`);
		expect(revisionField("currentRevision", REVISION, "whole")).toEqual({ currentRevision: REVISION });
		expect(revisionField("currentRevision", REVISION, "none")).toEqual({ changeTag: changeTagOf(REVISION) });
		expect(tokenKind(REVISION)).toBe("whole");
	});

	it("proves the whole note only with the revision itself, a part with its part token, and nothing with a change tag", () => {
		expect(proofIn(tags(`"${REVISION}"`), REVISION)).toBe("whole");
		expect(proofIn(tags(`"${partTokenOf(REVISION)}"`), REVISION)).toBe("part");
		expect(proofIn(tags(`"${changeTagOf(REVISION)}"`), REVISION)).toBeNull();
		expect(proofIn(tags(`W/"${REVISION}"`), REVISION)).toBeNull();
		expect(proofIn(tags(`"${partTokenOf(REVISION)}", "${REVISION}"`), REVISION)).toBe("whole");
		expect(sentTokenKind(tags(`W/"${changeTagOf(REVISION)}"`))).toBe("tag");
		expect(sentTokenKind(tags(`"${partTokenOf(REVISION)}"`))).toBe("part");
		expect(sentTokenKind(tags(`"${REVISION}"`))).toBe("whole");
	});

	it("answers If-None-Match with whichever form the client has", () => {
		expect(noneMatchSight(tags(`"${REVISION}"`), REVISION)).toBe("whole");
		expect(noneMatchSight(tags(`"${partTokenOf(REVISION)}"`), REVISION)).toBe("part");
		expect(noneMatchSight(tags(`W/"${changeTagOf(REVISION)}"`), REVISION)).toBe("none");
		expect(noneMatchSight(tags(`W/"${changeTagOf(revisionOf("other"))}"`), REVISION)).toBeNull();
	});

	it("takes a bare token as If-Match (the value of a JSON field, copied without quotes)", () => {
		expect(tags(REVISION)).toEqual({ kind: "tags", tags: [{ weak: false, opaque: REVISION }] });
		expect(tags(` ${partTokenOf(REVISION)} `)).toEqual({
			kind: "tags",
			tags: [{ weak: false, opaque: partTokenOf(REVISION) }],
		});
		expect(tags("not-a-token").kind).toBe("malformed");
	});
});

describe("the guard and the forms of a revision", () => {
	const request = (operation: GuardRequest["operation"], ifMatch: string): GuardRequest => ({
		operation,
		ifMatch: tags(ifMatch),
		ifNoneMatch: { kind: "absent" },
		requireToken: true,
	});
	const patch: GuardRequest["operation"] = {
		kind: "patch",
		apply: (current) => ({ ok: true, content: current + "- two\n" }),
	};

	it("lets a part token patch, edit and append, but never replace or delete the whole note", () => {
		const part = `"${partTokenOf(REVISION)}"`;
		expect(decideWrite(NOTE, request(patch, part)).kind).toBe("write");
		expect(decideWrite(NOTE, request({ kind: "edit", edits: [{ old: "- one", new: "- 1" }] }, part)).kind).toBe(
			"write",
		);
		expect(decideWrite(NOTE, request({ kind: "append", body: "- two\n" }, part)).kind).toBe("write");
		for (const operation of [{ kind: "replace", body: "blind\n" }, { kind: "delete" }] as const) {
			expect(decideWrite(NOTE, request(operation, part))).toEqual({
				kind: "refuse",
				refusal: { reason: "token-required", sent: "part-token" },
			});
		}
		// A stale part token is stale for a patch, and still not enough for a replace.
		const old = `"${partTokenOf(revisionOf("older"))}"`;
		expect(decideWrite(NOTE, request(patch, old))).toMatchObject({ kind: "refuse", refusal: { reason: "stale" } });
		expect(decideWrite(NOTE, request({ kind: "replace", body: "x\n" }, old))).toMatchObject({
			refusal: { reason: "token-required", sent: "part-token" },
		});
	});

	it("never lets a change tag pass, in any form", () => {
		for (const sent of [`W/"${changeTagOf(REVISION)}"`, `"${changeTagOf(REVISION)}"`, changeTagOf(REVISION)]) {
			for (const operation of [
				{ kind: "replace", body: "x\n" },
				{ kind: "delete" },
				{ kind: "append", body: "x\n" },
				patch,
			] as const) {
				expect(decideWrite(NOTE, request(operation, sent))).toEqual({
					kind: "refuse",
					refusal: { reason: "token-required", sent: "change-tag" },
				});
			}
		}
	});

	it("creates a missing note when the only token is the client's last read standing in for a missing one", () => {
		const held: GuardRequest = { ...request({ kind: "replace", body: "again\n" }, `"${REVISION}"`), implicit: true };
		expect(decideWrite(null, held)).toEqual({ kind: "write", content: "again\n", created: true });
		expect(decideWrite(null, { ...held, implicit: false })).toMatchObject({
			kind: "refuse",
			refusal: { reason: "stale" },
		});
	});
});
