import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	CONTENT_LOSS_MIN_LENGTH,
	decideWrite,
	noteStateOf,
	type GuardRequest,
	type WriteOperation,
} from "../../src/core/guard";
import { applyPatch } from "../../src/core/patch";
import { parseEntityTagCondition, revisionOf, type EntityTagCondition } from "../../src/core/revision";
import {
	planWrite,
	type AutoMerge,
	type MergeOption,
	type NoteState,
	type WritePlanInput,
} from "../../src/core/write-plan";

const absent: EntityTagCondition = { kind: "absent" };
const any: EntityTagCondition = { kind: "any" };
const tagOf = (revision: string) => parseEntityTagCondition(`"${revision}"`);
const tag = (content: string) => tagOf(revisionOf(content));

const replace = (body: string): WriteOperation => ({ kind: "replace", body });
const append = (body: string): WriteOperation => ({ kind: "append", body });
const del: WriteOperation = { kind: "delete" };

const CURRENT = "# Plan\n\n- buy milk\n";
const STALE = "# Plan\n\n- buy bread\n";
const AGENT = "# Plan\n\n- buy bread\n- call Ann\n";
const MERGED = "# Plan\n\n- buy milk\n- call Ann\n";
const current: NoteState = { content: CURRENT, revision: revisionOf(CURRENT) };

function guard(operation: WriteOperation, extra: Partial<GuardRequest> = {}): GuardRequest {
	return { operation, ifMatch: absent, ifNoneMatch: absent, requireToken: true, ...extra };
}

function input(state: NoteState | null, request: GuardRequest, extra: Partial<WritePlanInput> = {}): WritePlanInput {
	return { current: state, sawNote: false, request, bodyRevision: null, merge: null, ...extra };
}

const mergeFrom = (done: MergeOption["done"] = null, mayMerge = true): MergeOption => ({ base: STALE, mayMerge, done });
const staleReplace = guard(replace(AGENT), { ifMatch: tag(STALE) });

describe("planWrite: creating", () => {
	it("writes a note that is not there, with the body's revision and nothing replaced", () => {
		expect(planWrite(input(null, guard(replace(AGENT), { requireToken: false })))).toEqual({
			kind: "write",
			content: AGENT,
			revision: revisionOf(AGENT),
			created: true,
			replaced: null,
			merge: null,
		});
	});

	it("refuses as stale a note gone since an earlier step saw it, never re-creating it (moved or deleted meanwhile)", () => {
		const plan = planWrite(
			input(null, guard(replace(AGENT), { ifMatch: tag(CURRENT), implicit: true }), { sawNote: true }),
		);
		expect(plan).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: revisionOf(CURRENT) },
			current: null,
			conflicted: null,
		});
	});

	it("refuses an If-Match on a missing note, but a held read standing in for one creates it", () => {
		expect(planWrite(input(null, guard(replace(AGENT), { ifMatch: tag(CURRENT) })))).toMatchObject({
			kind: "refuse",
			refusal: { reason: "stale" },
		});
		expect(planWrite(input(null, guard(replace(AGENT), { ifMatch: tag(CURRENT), implicit: true })))).toMatchObject({
			kind: "write",
			created: true,
		});
	});

	it("refuses a delete, patch or edit of a missing note as not found", () => {
		for (const operation of [del, { kind: "edit", edits: [] } as WriteOperation])
			expect(planWrite(input(null, guard(operation)))).toMatchObject({
				kind: "refuse",
				refusal: { reason: "not-found" },
			});
	});
});

describe("planWrite: on a note that is there", () => {
	it("writes a replace with a current token, recording the note it replaces with the revision it was given", () => {
		expect(planWrite(input(current, guard(replace(AGENT), { ifMatch: tag(CURRENT) })))).toEqual({
			kind: "write",
			content: AGENT,
			revision: revisionOf(AGENT),
			created: false,
			replaced: current,
			merge: null,
		});
	});

	it("trusts the snapshot's revision: the note is never hashed again (a revision given is the one checked)", () => {
		const given: NoteState = { content: CURRENT, revision: "given-revision" };
		expect(planWrite(input(given, guard(replace(AGENT), { ifMatch: tagOf("given-revision") })))).toMatchObject({
			kind: "write",
			replaced: given,
		});
		expect(planWrite(input(given, guard(replace(AGENT), { ifMatch: tag(CURRENT) })))).toMatchObject({
			kind: "refuse",
			refusal: { reason: "stale" },
		});
	});

	it("uses a body revision worked out before the step for a replace, and hashes what the step made otherwise", () => {
		const known = input(current, guard(replace(AGENT), { ifMatch: tag(CURRENT) }), { bodyRevision: "sliced" });
		expect(planWrite(known)).toMatchObject({ kind: "write", revision: "sliced" });
		const appended = input(current, guard(append("- call Ann\n"), { ifMatch: tag(CURRENT) }), {
			bodyRevision: "sliced",
		});
		expect(planWrite(appended)).toMatchObject({ kind: "write", revision: revisionOf(CURRENT + "- call Ann\n") });
	});

	it("writes nothing when the note already is the body", () => {
		expect(planWrite(input(current, guard(replace(CURRENT), { ifMatch: tag(CURRENT) })))).toEqual({
			kind: "unchanged",
			current,
		});
	});

	it("trashes the note on a delete with a current token, handing on what it removes", () => {
		expect(planWrite(input(current, guard(del, { ifMatch: tag(CURRENT) })))).toEqual({
			kind: "delete",
			removed: current,
		});
	});

	it("says a patch that does not apply is inapplicable, with the note it was tried on", () => {
		const patch: WriteOperation = {
			kind: "patch",
			apply: (text) => applyPatch(text, { operation: "append", targetType: "heading", target: "Missing" }, "x"),
		};
		const plan = planWrite(input(current, guard(patch, { ifMatch: tag(CURRENT) })));
		expect(plan).toMatchObject({ kind: "inapplicable", current });
	});

	it("refuses a stale replace, with the note it saw", () => {
		expect(planWrite(input(current, staleReplace))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: revisionOf(STALE) },
			current,
			conflicted: null,
		});
	});
});

describe("planWrite: merging a stale replace", () => {
	const merged: AutoMerge = { kind: "merged", text: MERGED, rules: [] };

	it("asks for the merge first, from what the agent read onto the note the step sees", () => {
		expect(planWrite(input(current, staleReplace, { merge: mergeFrom() }))).toEqual({
			kind: "merge",
			base: STALE,
			current,
			body: AGENT,
		});
	});

	it("writes the merge computed against exactly this note, as a merged write with its rules", () => {
		const withRules: AutoMerge = { kind: "merged", text: MERGED, rules: ["frontmatter"] };
		const plan = planWrite(
			input(current, staleReplace, { merge: mergeFrom({ against: current.revision, result: withRules }) }),
		);
		expect(plan).toEqual({
			kind: "write",
			content: MERGED,
			revision: revisionOf(MERGED),
			created: false,
			replaced: current,
			merge: { rules: ["frontmatter"] },
		});
	});

	it("merges again when the note changed since the merge was computed", () => {
		const plan = planWrite(
			input(current, staleReplace, { merge: mergeFrom({ against: revisionOf(STALE), result: merged }) }),
		);
		expect(plan).toMatchObject({ kind: "merge", current });
	});

	it("refuses with the conflicts when the merge is not clean, and plainly when it failed", () => {
		const conflicted: AutoMerge = { kind: "conflicted", preview: "<<<<<<<", conflicts: 1, rules: [] };
		expect(
			planWrite(input(current, staleReplace, { merge: mergeFrom({ against: current.revision, result: conflicted }) })),
		).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: revisionOf(STALE) },
			current,
			conflicted: { preview: "<<<<<<<", rules: [] },
		});
		expect(
			planWrite(
				input(current, staleReplace, { merge: mergeFrom({ against: current.revision, result: { kind: "failed" } }) }),
			),
		).toMatchObject({ kind: "refuse", conflicted: null });
	});

	it("refuses once the note changed under too many merges, and never merges anything but a replace", () => {
		expect(planWrite(input(current, staleReplace, { merge: mergeFrom(null, false) }))).toMatchObject({
			kind: "refuse",
			refusal: { reason: "stale" },
		});
		const staleAppend = guard({ kind: "edit", edits: [] }, { ifMatch: tag(STALE) });
		expect(planWrite(input(current, staleAppend, { merge: mergeFrom() }))).toMatchObject({ kind: "refuse" });
	});

	it("never merges what is refused for another reason than a stale token", () => {
		const expired = guard(replace(AGENT), { ifMatch: tag(CURRENT), readExpired: true });
		expect(planWrite(input(current, expired, { merge: mergeFrom() }))).toMatchObject({
			kind: "refuse",
			refusal: { reason: "read-expired" },
		});
	});
});

describe("planWrite properties", () => {
	const texts = fc.oneof(
		fc.constantFrom(CURRENT, STALE, "", "x".repeat(CONTENT_LOSS_MIN_LENGTH)),
		fc.string({ maxLength: 150 }),
	);
	const condition = (candidates: string[]) =>
		fc.oneof(
			fc.constant<EntityTagCondition>(absent),
			fc.constant<EntityTagCondition>(any),
			fc.constantFrom(...candidates).map(tag),
			fc.constant<EntityTagCondition>({ kind: "malformed", raw: "x" }),
		);
	const scenario = fc.tuple(fc.option(texts, { nil: null }), texts, texts).chain(([note, body, other]) =>
		fc.record({
			note: fc.constant(note),
			request: fc.record({
				operation: fc.constantFrom(replace(body), append(body), del, replace(note ?? body)),
				ifMatch: condition([note ?? other, other, body]),
				ifNoneMatch: condition([note ?? other, other]),
				requireToken: fc.boolean(),
				readExpired: fc.boolean(),
				allowEmpty: fc.boolean(),
				implicit: fc.boolean(),
			}),
			bodyRevision: fc.boolean(),
		}),
	);

	it("decides exactly as the guard does, carrying the snapshot and the written text's revision", () => {
		fc.assert(
			fc.property(scenario, ({ note, request, bodyRevision }) => {
				const state = noteStateOf(note);
				const body = request.operation.kind === "replace" ? request.operation.body : null;
				const plan = planWrite(
					input(state, request, { bodyRevision: bodyRevision && body !== null ? revisionOf(body) : null }),
				);
				const decision = decideWrite(note, request);
				switch (decision.kind) {
					case "write":
						expect(plan).toEqual({
							kind: "write",
							content: decision.content,
							revision: revisionOf(decision.content),
							created: decision.created,
							replaced: state,
							merge: null,
						});
						break;
					case "refuse":
						expect(plan).toEqual({ kind: "refuse", refusal: decision.refusal, current: state, conflicted: null });
						break;
					case "delete":
						expect(plan).toEqual({ kind: "delete", removed: state });
						break;
					default:
						expect(plan).toMatchObject({ kind: decision.kind, current: state });
				}
			}),
			{ numRuns: 2000 },
		);
	});

	it("is pure: the same input gives the same plan, and the input is left as it was", () => {
		fc.assert(
			fc.property(scenario, fc.boolean(), ({ note, request }, sawNote) => {
				const given = input(noteStateOf(note), request, { sawNote, merge: mergeFrom() });
				const copy = structuredClone(given);
				expect(planWrite(given)).toEqual(planWrite(given));
				expect(given).toEqual(copy);
			}),
			{ numRuns: 500 },
		);
	});

	it("never writes over a note it did not see, nor re-creates one an earlier step saw", () => {
		fc.assert(
			fc.property(scenario, fc.boolean(), ({ note, request }, sawNote) => {
				const plan = planWrite(input(noteStateOf(note), request, { sawNote }));
				if (plan.kind === "write") {
					expect(plan.replaced?.content ?? null).toBe(note);
					if (note === null) expect(sawNote).toBe(false);
				}
			}),
			{ numRuns: 1000 },
		);
	});

	it("only writes a merge computed against the very revision it replaces", () => {
		fc.assert(
			fc.property(scenario, fc.constantFrom(CURRENT, STALE), fc.boolean(), ({ note, request }, against, mayMerge) => {
				const result: AutoMerge = { kind: "merged", text: MERGED, rules: [] };
				const plan = planWrite(
					input(noteStateOf(note), request, { merge: mergeFrom({ against: revisionOf(against), result }, mayMerge) }),
				);
				if (plan.kind === "write" && plan.merge !== null) {
					expect(plan.replaced?.revision).toBe(revisionOf(against));
					expect(mayMerge).toBe(true);
					expect(plan.content).toBe(MERGED);
				}
			}),
			{ numRuns: 1000 },
		);
	});
});
