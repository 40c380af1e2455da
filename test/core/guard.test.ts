import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	CONTENT_LOSS_MIN_LENGTH,
	decideWrite,
	wouldLoseContent,
	type GuardRequest,
	type WriteOperation,
} from "../../src/core/guard";
import { parseEntityTagCondition, revisionOf, type EntityTagCondition } from "../../src/core/revision";

const absent: EntityTagCondition = { kind: "absent" };
const any: EntityTagCondition = { kind: "any" };
const tag = (content: string) => parseEntityTagCondition(`"${revisionOf(content)}"`);
const weakTag = (content: string) => parseEntityTagCondition(`W/"${revisionOf(content)}"`);

const replace = (body: string): WriteOperation => ({ kind: "replace", body });
const append = (body: string): WriteOperation => ({ kind: "append", body });
const del: WriteOperation = { kind: "delete" };

function request(operation: WriteOperation, extra: Partial<GuardRequest> = {}): GuardRequest {
	return { operation, ifMatch: absent, ifNoneMatch: absent, requireToken: true, ...extra };
}

const CURRENT = "# Plan\n\n- buy milk\n";
const STALE = "# Plan\n\n- buy bread\n";
const LONG = "x".repeat(CONTENT_LOSS_MIN_LENGTH);

describe("decideWrite: malformed conditions", () => {
	it("refuses a malformed If-Match before anything else", () => {
		for (const current of [null, CURRENT]) {
			for (const operation of [replace(CURRENT), append("x"), del]) {
				expect(decideWrite(current, request(operation, { ifMatch: parseEntityTagCondition("abc") }))).toEqual({
					kind: "refuse",
					refusal: { reason: "malformed-condition", header: "If-Match" },
				});
			}
		}
	});

	it("refuses a malformed If-None-Match", () => {
		for (const current of [null, CURRENT]) {
			expect(decideWrite(current, request(replace("x"), { ifNoneMatch: parseEntityTagCondition("W/abc") }))).toEqual({
				kind: "refuse",
				refusal: { reason: "malformed-condition", header: "If-None-Match" },
			});
		}
	});

	it("names If-Match when both headers are malformed", () => {
		const decision = decideWrite(
			CURRENT,
			request(replace("x"), { ifMatch: { kind: "malformed", raw: "a" }, ifNoneMatch: { kind: "malformed", raw: "b" } }),
		);
		expect(decision).toEqual({ kind: "refuse", refusal: { reason: "malformed-condition", header: "If-Match" } });
	});
});

describe("decideWrite: the note does not exist", () => {
	it("creates a note without a token", () => {
		expect(decideWrite(null, request(replace("hello\n")))).toEqual({
			kind: "write",
			content: "hello\n",
			created: true,
		});
	});

	it("creates with If-None-Match: * (create-only)", () => {
		expect(decideWrite(null, request(replace("hello"), { ifNoneMatch: any }))).toEqual({
			kind: "write",
			content: "hello",
			created: true,
		});
	});

	it("creates an empty note", () => {
		expect(decideWrite(null, request(replace("")))).toEqual({ kind: "write", content: "", created: true });
	});

	it("append to a missing note creates it with the appended text", () => {
		expect(decideWrite(null, request(append("line\n")))).toEqual({ kind: "write", content: "line\n", created: true });
	});

	it("refuses If-Match on a missing note as stale, reporting the sent revision", () => {
		const sent = revisionOf(CURRENT);
		expect(decideWrite(null, request(replace("x"), { ifMatch: tag(CURRENT) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: sent },
		});
		expect(decideWrite(null, request(append("x"), { ifMatch: tag(CURRENT) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: sent },
		});
	});

	it("reports a null sent revision when only weak tags were sent to a missing note", () => {
		expect(decideWrite(null, request(replace("x"), { ifMatch: weakTag(CURRENT) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: null },
		});
	});

	it("refuses If-Match: * on a missing note as stale, since * is false when nothing exists (RFC 9110 §13.1.1)", () => {
		for (const operation of [replace("x"), append("x")]) {
			for (const requireToken of [true, false]) {
				expect(decideWrite(null, request(operation, { ifMatch: any, requireToken }))).toEqual({
					kind: "refuse",
					refusal: { reason: "stale", sentRevision: null },
				});
			}
		}
	});

	it("answers not-found when deleting a missing note, with or without a token", () => {
		for (const ifMatch of [absent, any, tag(CURRENT)]) {
			expect(decideWrite(null, request(del, { ifMatch }))).toEqual({
				kind: "refuse",
				refusal: { reason: "not-found" },
			});
		}
	});
});

describe("decideWrite: If-None-Match on an existing note", () => {
	it("If-None-Match: * refuses with exists, even when the body is identical", () => {
		expect(decideWrite(CURRENT, request(replace("other"), { ifNoneMatch: any }))).toEqual({
			kind: "refuse",
			refusal: { reason: "exists" },
		});
		expect(decideWrite(CURRENT, request(replace(CURRENT), { ifNoneMatch: any }))).toEqual({
			kind: "refuse",
			refusal: { reason: "exists" },
		});
		expect(decideWrite(CURRENT, request(append("x"), { ifNoneMatch: any, ifMatch: tag(CURRENT) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "exists" },
		});
	});

	it("If-None-Match with the current tag refuses with exists, using weak comparison", () => {
		expect(decideWrite(CURRENT, request(replace("x"), { ifNoneMatch: tag(CURRENT) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "exists" },
		});
		expect(decideWrite(CURRENT, request(replace("x"), { ifNoneMatch: weakTag(CURRENT) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "exists" },
		});
	});

	it("If-None-Match with another tag does not block the write", () => {
		expect(decideWrite(CURRENT, request(replace("x"), { ifNoneMatch: tag(STALE), ifMatch: tag(CURRENT) }))).toEqual({
			kind: "write",
			content: "x",
			created: false,
		});
	});
});

describe("decideWrite: replace", () => {
	it("writes when If-Match carries the current revision", () => {
		expect(decideWrite(CURRENT, request(replace(STALE), { ifMatch: tag(CURRENT) }))).toEqual({
			kind: "write",
			content: STALE,
			created: false,
		});
	});

	it("writes when any tag of an If-Match list is current", () => {
		const ifMatch = parseEntityTagCondition(`"${revisionOf(STALE)}", "${revisionOf(CURRENT)}"`);
		expect(decideWrite(CURRENT, request(replace("new"), { ifMatch }))).toEqual({
			kind: "write",
			content: "new",
			created: false,
		});
	});

	it("refuses a stale write, reporting the revision the client sent", () => {
		expect(decideWrite(CURRENT, request(replace("new"), { ifMatch: tag(STALE) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: revisionOf(STALE) },
		});
	});

	it("weak tags never satisfy If-Match, even for the current revision", () => {
		expect(decideWrite(CURRENT, request(replace("new"), { ifMatch: weakTag(CURRENT) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: null },
		});
	});

	it("answers unchanged when the note already holds the body, even with a stale or missing token", () => {
		for (const ifMatch of [absent, any, tag(STALE), tag(CURRENT), weakTag(STALE)]) {
			expect(decideWrite(CURRENT, request(replace(CURRENT), { ifMatch }))).toEqual({ kind: "unchanged" });
		}
		expect(decideWrite(CURRENT, request(replace(CURRENT), { ifMatch: tag(CURRENT), readExpired: true }))).toEqual({
			kind: "unchanged",
		});
		expect(decideWrite("", request(replace("")))).toEqual({ kind: "unchanged" });
	});

	it("requires a token to replace an existing note", () => {
		expect(decideWrite(CURRENT, request(replace("new")))).toEqual({
			kind: "refuse",
			refusal: { reason: "token-required" },
		});
	});

	it("treats If-Match: * like no token at all, even when tokens are optional", () => {
		expect(decideWrite(CURRENT, request(replace("new"), { ifMatch: any }))).toEqual({
			kind: "refuse",
			refusal: { reason: "token-required", wildcard: true },
		});
		expect(decideWrite(CURRENT, request(replace("new"), { ifMatch: any, requireToken: false }))).toEqual({
			kind: "refuse",
			refusal: { reason: "token-required", wildcard: true },
		});
	});

	it("refuses a current but expired read with read-expired", () => {
		expect(decideWrite(CURRENT, request(replace("new"), { ifMatch: tag(CURRENT), readExpired: true }))).toEqual({
			kind: "refuse",
			refusal: { reason: "read-expired", sentRevision: revisionOf(CURRENT) },
		});
	});

	it("prefers stale over read-expired when the token is not current", () => {
		expect(decideWrite(CURRENT, request(replace("new"), { ifMatch: tag(STALE), readExpired: true }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: revisionOf(STALE) },
		});
	});

	it("with tokens optional, allows a tokenless replace that keeps most of the note", () => {
		expect(decideWrite(LONG, request(replace(LONG + "more"), { requireToken: false }))).toEqual({
			kind: "write",
			content: LONG + "more",
			created: false,
		});
		const half = "y".repeat(CONTENT_LOSS_MIN_LENGTH / 2);
		expect(decideWrite(LONG, request(replace(half), { requireToken: false }))).toEqual({
			kind: "write",
			content: half,
			created: false,
		});
	});

	it("with tokens optional, refuses a tokenless replace that shrinks a note of 100+ chars to under half", () => {
		const shrunk = "y".repeat(CONTENT_LOSS_MIN_LENGTH / 2 - 1);
		expect(decideWrite(LONG, request(replace(shrunk), { requireToken: false }))).toEqual({
			kind: "refuse",
			refusal: { reason: "content-loss", currentLength: LONG.length, newLength: shrunk.length },
		});
		expect(decideWrite(LONG, request(replace(""), { requireToken: false, allowEmpty: true }))).toEqual({
			kind: "refuse",
			refusal: { reason: "content-loss", currentLength: LONG.length, newLength: 0 },
		});
	});

	it("with tokens optional, lets a tokenless replace shrink a short note freely", () => {
		const short = "z".repeat(CONTENT_LOSS_MIN_LENGTH - 1);
		expect(decideWrite(short, request(replace("z"), { requireToken: false }))).toEqual({
			kind: "write",
			content: "z",
			created: false,
		});
		expect(decideWrite(short, request(replace(""), { requireToken: false, allowEmpty: true }))).toEqual({
			kind: "write",
			content: "",
			created: false,
		});
	});

	it("does not apply the content-loss check when a valid token was sent", () => {
		const short = "y".repeat(10);
		expect(decideWrite(LONG, request(replace(short), { ifMatch: tag(LONG), requireToken: false }))).toEqual({
			kind: "write",
			content: short,
			created: false,
		});
		expect(decideWrite(LONG, request(replace(""), { ifMatch: tag(LONG), allowEmpty: true }))).toEqual({
			kind: "write",
			content: "",
			created: false,
		});
	});

	it("refuses an empty body over a non-empty note, even with a current token, unless the client says it means it", () => {
		for (const overrides of [{ ifMatch: tag(LONG) }, { requireToken: false }, {}]) {
			expect(decideWrite(LONG, request(replace(""), overrides))).toEqual({
				kind: "refuse",
				refusal: { reason: "empty-body", currentLength: LONG.length },
			});
		}
		expect(decideWrite(LONG, request(replace(""), { ifMatch: tag(LONG), allowEmpty: true }))).toEqual({
			kind: "write",
			content: "",
			created: false,
		});
		// Creating an empty note, or "emptying" an empty one, loses nothing.
		expect(decideWrite(null, request(replace("")))).toEqual({ kind: "write", content: "", created: true });
		expect(decideWrite("", request(replace(""), { ifMatch: tag("") }))).toEqual({ kind: "unchanged" });
	});

	it("still refuses a stale token when tokens are optional", () => {
		expect(decideWrite(CURRENT, request(replace("new"), { ifMatch: tag(STALE), requireToken: false }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: revisionOf(STALE) },
		});
	});
});

describe("decideWrite: append", () => {
	it("appends without a token", () => {
		expect(decideWrite(CURRENT, request(append("- eggs\n")))).toEqual({
			kind: "write",
			content: CURRENT + "- eggs\n",
			created: false,
		});
	});

	it("honours If-Match when one is sent", () => {
		expect(decideWrite(CURRENT, request(append("- eggs\n"), { ifMatch: tag(CURRENT) }))).toEqual({
			kind: "write",
			content: CURRENT + "- eggs\n",
			created: false,
		});
		expect(decideWrite(CURRENT, request(append("- eggs\n"), { ifMatch: tag(STALE) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: revisionOf(STALE) },
		});
		expect(decideWrite(CURRENT, request(append("x"), { ifMatch: tag(CURRENT), readExpired: true }))).toEqual({
			kind: "refuse",
			refusal: { reason: "read-expired", sentRevision: revisionOf(CURRENT) },
		});
	});

	it("an empty append is still a write of the unchanged content", () => {
		expect(decideWrite(CURRENT, request(append("")))).toEqual({ kind: "write", content: CURRENT, created: false });
	});
});

describe("decideWrite: delete", () => {
	it("needs a token to delete", () => {
		expect(decideWrite(CURRENT, request(del))).toEqual({ kind: "refuse", refusal: { reason: "token-required" } });
		expect(decideWrite(CURRENT, request(del, { ifMatch: any }))).toEqual({
			kind: "refuse",
			refusal: { reason: "token-required", wildcard: true },
		});
	});

	it("deletes with the current token", () => {
		expect(decideWrite(CURRENT, request(del, { ifMatch: tag(CURRENT) }))).toEqual({ kind: "delete" });
	});

	it("refuses to delete with a stale token", () => {
		expect(decideWrite(CURRENT, request(del, { ifMatch: tag(STALE) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "stale", sentRevision: revisionOf(STALE) },
		});
	});

	it("refuses to delete an expired read", () => {
		expect(decideWrite(CURRENT, request(del, { ifMatch: tag(CURRENT), readExpired: true }))).toEqual({
			kind: "refuse",
			refusal: { reason: "read-expired", sentRevision: revisionOf(CURRENT) },
		});
	});
});

describe("decideWrite: patch", () => {
	const addLine = (line: string): WriteOperation => ({
		kind: "patch",
		apply: (current) => ({ ok: true, content: current + line }),
	});
	const missingTarget: WriteOperation = {
		kind: "patch",
		apply: () => ({ ok: false, reason: "target-not-found", detail: "no such heading" }),
	};
	const noChange: WriteOperation = { kind: "patch", apply: (current) => ({ ok: true, content: current }) };

	it("computes the patch on the note as it is, with the current token", () => {
		expect(decideWrite(CURRENT, request(addLine("- eggs\n"), { ifMatch: tag(CURRENT) }))).toEqual({
			kind: "write",
			content: `${CURRENT}- eggs\n`,
			created: false,
		});
	});

	it("always needs a token, whatever requireToken says; If-Match: * proves nothing", () => {
		expect(decideWrite(CURRENT, request(addLine("x"), { requireToken: false }))).toEqual({
			kind: "refuse",
			refusal: { reason: "token-required" },
		});
		expect(decideWrite(CURRENT, request(addLine("x"), { ifMatch: any }))).toEqual({
			kind: "refuse",
			refusal: { reason: "token-required", wildcard: true },
		});
	});

	it("refuses a stale token before computing anything, even when the patch could not apply", () => {
		for (const operation of [addLine("x"), missingTarget]) {
			expect(decideWrite(CURRENT, request(operation, { ifMatch: tag(STALE) }))).toEqual({
				kind: "refuse",
				refusal: { reason: "stale", sentRevision: revisionOf(STALE) },
			});
		}
		expect(decideWrite(CURRENT, request(addLine("x"), { ifMatch: tag(CURRENT), readExpired: true }))).toEqual({
			kind: "refuse",
			refusal: { reason: "read-expired", sentRevision: revisionOf(CURRENT) },
		});
	});

	it("says when a patch with a current token does not apply, and when it changes nothing", () => {
		expect(decideWrite(CURRENT, request(missingTarget, { ifMatch: tag(CURRENT) }))).toEqual({
			kind: "inapplicable",
			failure: { reason: "target-not-found", detail: "no such heading" },
		});
		expect(decideWrite(CURRENT, request(noChange, { ifMatch: tag(CURRENT) }))).toEqual({ kind: "unchanged" });
	});

	it("cannot patch a note that is not there", () => {
		expect(decideWrite(null, request(addLine("x"), { ifMatch: tag(CURRENT) }))).toEqual({
			kind: "refuse",
			refusal: { reason: "not-found" },
		});
	});
});

describe("wouldLoseContent", () => {
	it("only flags notes of at least 100 chars shrinking to under half", () => {
		expect(wouldLoseContent("a".repeat(100), "a".repeat(49))).toBe(true);
		expect(wouldLoseContent("a".repeat(100), "a".repeat(50))).toBe(false);
		expect(wouldLoseContent("a".repeat(99), "")).toBe(false);
		expect(wouldLoseContent("a".repeat(101), "a".repeat(50))).toBe(true);
		expect(wouldLoseContent("a".repeat(101), "a".repeat(51))).toBe(false);
	});
});

describe("decideWrite properties", () => {
	const texts = fc.oneof(fc.constantFrom(CURRENT, STALE, "", LONG), fc.string({ maxLength: 150 }));
	const condition = (candidates: string[]) =>
		fc.oneof(
			fc.constant<EntityTagCondition>(absent),
			fc.constant<EntityTagCondition>(any),
			fc.constantFrom(...candidates).map(tag),
			fc.constantFrom(...candidates).map(weakTag),
			fc.constant<EntityTagCondition>({ kind: "malformed", raw: "x" }),
		);
	const scenario = fc.tuple(fc.option(texts, { nil: null }), texts, texts).chain(([current, body, other]) =>
		fc.record({
			current: fc.constant(current),
			operation: fc.oneof(
				fc.constant(replace(body)),
				fc.constant(append(body)),
				fc.constant(del),
				fc.constant(replace(current ?? body)),
			),
			ifMatch: condition([current ?? other, other, body]),
			ifNoneMatch: condition([current ?? other, other]),
			requireToken: fc.boolean(),
			readExpired: fc.boolean(),
		}),
	);

	it("a write or delete with If-Match tags only happens when a strong tag equals revisionOf(current)", () => {
		fc.assert(
			fc.property(scenario, ({ current, ...req }) => {
				const decision = decideWrite(current, req);
				if ((decision.kind === "write" || decision.kind === "delete") && req.ifMatch.kind === "tags") {
					expect(current).not.toBeNull();
					expect(req.ifMatch.tags.some((t) => !t.weak && t.opaque === revisionOf(current!))).toBe(true);
					expect(req.readExpired).toBe(false);
				}
			}),
			{ numRuns: 2000 },
		);
	});

	it("never overwrites or deletes an existing note without a current token when tokens are required, except by appending", () => {
		fc.assert(
			fc.property(scenario, ({ current, ...req }) => {
				const decision = decideWrite(current, { ...req, requireToken: true });
				if (current === null || req.operation.kind === "append") return;
				if (decision.kind === "write" || decision.kind === "delete") {
					expect(req.ifMatch.kind).toBe("tags");
				}
			}),
			{ numRuns: 2000 },
		);
	});

	it("writes exactly the body (replace) or current + body (append), and marks creation only for missing notes", () => {
		fc.assert(
			fc.property(scenario, ({ current, ...req }) => {
				const decision = decideWrite(current, req);
				if (decision.kind !== "write") return;
				expect(decision.created).toBe(current === null);
				if (req.operation.kind === "replace") expect(decision.content).toBe(req.operation.body);
				else if (req.operation.kind === "append") expect(decision.content).toBe((current ?? "") + req.operation.body);
				else throw new Error("a delete never becomes a write");
			}),
			{ numRuns: 1000 },
		);
	});

	it("is deterministic and never throws", () => {
		fc.assert(
			fc.property(scenario, ({ current, ...req }) => {
				expect(decideWrite(current, req)).toEqual(decideWrite(current, req));
			}),
		);
	});
});
