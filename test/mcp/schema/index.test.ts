/** Our tool schemas: they check arguments as zod 3 did, in its words, and never throw, whatever they are given. */
import { describe, expect, it } from "vitest";
import { receivedType, z, type Infer } from "../../../src/mcp/schema";

const messages = (schema: { parse(value: unknown): { ok: boolean } }, value: unknown) => {
	const parsed = schema.parse(value) as { ok: true } | { ok: false; issues: { path: unknown[]; message: string }[] };
	return parsed.ok ? [] : parsed.issues.map((issue) => `${issue.message} @${issue.path.join(".")}`);
};

describe("checking a value", () => {
	it("says what zod 3 said for a missing or mistyped field", () => {
		const schema = z.object({ path: z.string(), limit: z.number().int().min(1).max(100).optional() });
		expect(messages(schema, {})).toEqual(["Required @path"]);
		expect(messages(schema, { path: 5 })).toEqual(["Expected string, received number @path"]);
		expect(messages(schema, { path: null })).toEqual(["Expected string, received null @path"]);
		expect(messages(schema, { path: "a", limit: 1.5 })).toEqual(["Expected integer, received float @limit"]);
		expect(messages(schema, { path: "a", limit: 0 })).toEqual(["Number must be greater than or equal to 1 @limit"]);
		expect(messages(schema, { path: "a", limit: 101 })).toEqual(["Number must be less than or equal to 100 @limit"]);
		expect(messages(schema, [])).toEqual(["Expected object, received array @"]);
	});

	it("checks strings, enums, literals, arrays and records", () => {
		expect(messages(z.string().min(2), "a")).toEqual(["String must contain at least 2 character(s) @"]);
		expect(messages(z.string().max(1), "ab")).toEqual(["String must contain at most 1 character(s) @"]);
		expect(messages(z.string().regex(/^\d+$/), "x")).toEqual(["Invalid @"]);
		expect(messages(z.enum(["a", "b"]), "c")).toEqual(["Invalid enum value. Expected 'a' | 'b', received 'c' @"]);
		expect(messages(z.enum(["a", "b"]), 1)).toEqual(["Expected 'a' | 'b', received number @"]);
		expect(messages(z.literal("pending"), "done")).toEqual(['Invalid literal value, expected "pending" @']);
		expect(messages(z.array(z.string()).min(1), [])).toEqual(["Array must contain at least 1 element(s) @"]);
		expect(messages(z.array(z.string()).max(1), ["a", 2])).toEqual([
			"Array must contain at most 1 element(s) @",
			"Expected string, received number @1",
		]);
		expect(messages(z.record(z.string(), z.unknown()), "x")).toEqual(["Expected object, received string @"]);
		expect(messages(z.boolean(), "true")).toEqual(["Expected boolean, received string @"]);
		expect(messages(z.null(), 0)).toEqual(["Expected null, received number @"]);
	});

	it("puts a union's issue after the others, as zod's asynchronous parse did", () => {
		const schema = z.object({
			target: z.union([z.array(z.string()), z.string()]),
			operation: z.enum(["append", "replace"]),
		});
		expect(messages(schema, { operation: "bogus" })).toEqual([
			"Invalid enum value. Expected 'append' | 'replace', received 'bogus' @operation",
			"Invalid input @target",
		]);
		expect(schema.parse({ target: ["a"], operation: "append" })).toEqual({
			ok: true,
			value: { target: ["a"], operation: "append" },
		});
	});

	it("lets optional and nullable fields be left out or null, and drops keys the shape does not name", () => {
		const schema = z.object({ a: z.string().optional(), b: z.string().nullable(), c: z.unknown() });
		expect(schema.parse({ b: null, extra: 1 })).toEqual({ ok: true, value: { b: null } });
		expect(messages(schema, { a: null, b: null })).toEqual(["Expected string, received null @a"]);
	});

	it("never lets a __proto__ key reach a checked copy's prototype", () => {
		const parsed = z.record(z.unknown()).parse(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'));
		expect(parsed.ok).toBe(true);
		const value = (parsed as { value: Record<string, unknown> }).value;
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(value).toEqual({ a: 1 });
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it("checks deep and huge values without throwing", () => {
		let deep: unknown = "leaf";
		for (let i = 0; i < 2000; i++) deep = [deep];
		expect(z.object({ a: z.unknown() }).parse({ a: deep }).ok).toBe(true);
		const huge = Array.from({ length: 100_000 }, (_, i) => i);
		expect(messages(z.array(z.string()).max(2), huge.slice(0, 3))).toHaveLength(4);
		expect(z.array(z.number()).parse(huge).ok).toBe(true);
		for (const value of [undefined, null, 0, "", [], {}, () => 1, Symbol("s"), 10n, Number.NaN]) {
			expect(() => z.object({ a: z.string() }).parse(value)).not.toThrow();
		}
	});

	it("names what it received as zod did", () => {
		expect([null, [], 1, Number.NaN, "s", true, undefined, {}].map(receivedType)).toEqual([
			"null",
			"array",
			"number",
			"nan",
			"string",
			"boolean",
			"undefined",
			"object",
		]);
	});

	it("never changes a schema a modifier was called on (tools share them)", () => {
		const base = z.string();
		const described = base.describe("x").min(1);
		expect(base.description).toBeUndefined();
		expect(base.kind).toEqual({ kind: "string" });
		expect(described.kind).toEqual({ kind: "string", minLength: 1 });
		expect(described.description).toBe("x");
	});

	it("types a shape's arguments, optional keys optional", () => {
		const schema = z.object({ a: z.string(), b: z.number().optional() });
		const value: Infer<typeof schema> = { a: "x" };
		expect(schema.parse(value).ok).toBe(true);
	});
});
