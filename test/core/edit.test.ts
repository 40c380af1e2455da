import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyEdits, MAX_EDITED_LENGTH, MAX_EDITS } from "../../src/core/edit";
import { decideWrite } from "../../src/core/guard";
import { parseEntityTagCondition, revisionOf } from "../../src/core/revision";

const note = "# Plan\n\n- buy milk\n- call Sam\n";

describe("applyEdits", () => {
	it("replaces one exact occurrence, literally ($& and $$ are just characters)", () => {
		expect(applyEdits(note, [{ old: "buy milk", new: "buy oat milk $& $$ $1" }])).toEqual({
			ok: true,
			content: "# Plan\n\n- buy oat milk $& $$ $1\n- call Sam\n",
		});
		expect(applyEdits("a.*b\n", [{ old: ".*", new: "+" }])).toEqual({ ok: true, content: "a+b\n" });
	});

	it("applies several edits in order, each on the result of the one before", () => {
		expect(
			applyEdits(note, [
				{ old: "buy milk", new: "buy bread" },
				{ old: "bread", new: "rye bread" },
			]),
		).toEqual({ ok: true, content: "# Plan\n\n- buy rye bread\n- call Sam\n" });
	});

	it("fails, changing nothing, when an old text is missing, repeated, empty or the same as its new text", () => {
		expect(applyEdits(note, [{ old: "buy eggs", new: "x" }])).toMatchObject({ ok: false, reason: "target-not-found" });
		expect(
			applyEdits(note, [
				{ old: "buy milk", new: "x" },
				{ old: "buy milk", new: "y" },
			]),
		).toMatchObject({ ok: false, reason: "target-not-found", detail: expect.stringContaining("Edit 2") });
		expect(applyEdits(note, [{ old: "- ", new: "* " }])).toMatchObject({
			ok: false,
			reason: "ambiguous-target",
			detail: expect.stringContaining("2 times"),
		});
		expect(applyEdits(note, [{ old: "", new: "x" }])).toMatchObject({ ok: false, reason: "invalid-target" });
		expect(applyEdits(note, [{ old: "Sam", new: "Sam" }])).toMatchObject({ ok: false, reason: "invalid-target" });
		expect(applyEdits(note, [])).toMatchObject({ ok: false, reason: "invalid-target" });
		expect(
			applyEdits(
				note,
				Array.from({ length: MAX_EDITS + 1 }, () => ({ old: "a", new: "b" })),
			),
		).toMatchObject({ ok: false, reason: "invalid-target" });
	});

	it("replaces every occurrence with replaceAll", () => {
		expect(applyEdits(note, [{ old: "- ", new: "* ", replaceAll: true }])).toEqual({
			ok: true,
			content: "# Plan\n\n* buy milk\n* call Sam\n",
		});
	});

	// A one-character old text replaced everywhere by 1,000 characters made a 1 MB note a 1 G-character string: the
	// host threw "Invalid string length" inside the write step (an internal error) after allocating gigabytes.
	it("refuses a replaceAll whose result would be too long, before building it", () => {
		const many = "a".repeat(1_000_000);
		const result = applyEdits(many, [{ old: "a", new: "b".repeat(1000), replaceAll: true }]);
		expect(result).toMatchObject({ ok: false, reason: "invalid-value" });
		expect(applyEdits(many, [{ old: "a", new: "bb", replaceAll: true }])).toEqual({
			ok: true,
			content: "b".repeat(2_000_000),
		});
		expect(MAX_EDITED_LENGTH).toBeGreaterThanOrEqual(16 * 1024 * 1024);
	});

	it("changes only what it matched (property)", () => {
		fc.assert(
			fc.property(
				fc.string(),
				fc.string({ minLength: 1 }),
				fc.string(),
				fc.string(),
				(before, old, after, replacement) => {
					fc.pre(
						!before.includes(old) &&
							!after.includes(old) &&
							!(before + old + after).slice(1).includes(old) &&
							old !== replacement,
					);
					const result = applyEdits(before + old + after, [{ old, new: replacement }]);
					expect(result).toEqual({ ok: true, content: before + replacement + after });
				},
			),
		);
	});
});

describe("decideWrite with edits", () => {
	const absent = parseEntityTagCondition(undefined);
	const edit = { kind: "edit" as const, edits: [{ old: "call Sam", new: "call Sam at 5" }] };

	it("needs no token, and checks one when sent", () => {
		expect(decideWrite(note, { operation: edit, ifMatch: absent, ifNoneMatch: absent, requireToken: true })).toEqual({
			kind: "write",
			content: note.replace("call Sam", "call Sam at 5"),
			created: false,
		});
		expect(
			decideWrite(note, {
				operation: edit,
				ifMatch: parseEntityTagCondition(`"${revisionOf("older\n")}"`),
				ifNoneMatch: absent,
				requireToken: true,
			}),
		).toMatchObject({ kind: "refuse", refusal: { reason: "stale" } });
		expect(
			decideWrite(note, {
				operation: edit,
				ifMatch: parseEntityTagCondition(`"${revisionOf(note)}"`),
				ifNoneMatch: absent,
				requireToken: true,
			}),
		).toMatchObject({ kind: "write" });
	});

	it("is not found on a missing note, and inapplicable when its text is not there", () => {
		expect(decideWrite(null, { operation: edit, ifMatch: absent, ifNoneMatch: absent, requireToken: true })).toEqual({
			kind: "refuse",
			refusal: { reason: "not-found" },
		});
		expect(
			decideWrite("other\n", { operation: edit, ifMatch: absent, ifNoneMatch: absent, requireToken: true }),
		).toMatchObject({ kind: "inapplicable", failure: { reason: "target-not-found" } });
	});
});
