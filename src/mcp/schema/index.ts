/**
 * The tool schemas: exactly the part of zod's API our tools use (string, number, boolean, enum, literal, null, unknown,
 * array, object, record, union; min, max, int, regex, optional, nullable, describe), in a few KB instead of zod's
 * 150. A schema checks a tool's arguments (issues worded as zod 3 worded them, so an agent sees what it saw before)
 * and describes itself as JSON Schema (json-schema.ts, as zod-to-json-schema wrote it for MCP's tools/list).
 */

/** One thing wrong with a value: where (keys and indexes from the root) and what. */
export interface Issue {
	path: (string | number)[];
	message: string;
	/** Reported by a union (ordered last, see `parse`). */
	fromUnion?: boolean;
}

export type Shape = Record<string, Schema<unknown>>;

export type Infer<S> = S extends Schema<infer T> ? T : never;

type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
/** An object shape's value: a key whose schema allows undefined may be left out. */
export type ObjectOf<S extends Shape> = { [K in RequiredKeys<S>]: Infer<S[K]> } & {
	[K in OptionalKeys<S>]?: Infer<S[K]>;
};

/** What the value is, in zod 3's words ("Expected string, received number"). */
export function receivedType(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	if (typeof value === "number") return Number.isNaN(value) ? "nan" : "number";
	return typeof value;
}

/** What a schema knows besides how to check: how json-schema.ts describes it. */
export type Kind =
	| { kind: "string"; minLength?: number; maxLength?: number; pattern?: RegExp }
	| { kind: "number"; integer: boolean; minimum?: number; maximum?: number }
	| { kind: "boolean" }
	| { kind: "null" }
	| { kind: "unknown" }
	| { kind: "enum"; values: readonly string[] }
	| { kind: "literal"; value: string | number | boolean }
	| { kind: "array"; items: Schema<unknown>; minItems?: number; maxItems?: number }
	| { kind: "object"; shape: Shape }
	| { kind: "record"; values: Schema<unknown> }
	| { kind: "union"; options: readonly Schema<unknown>[] }
	| { kind: "optional"; inner: Schema<unknown> }
	| { kind: "nullable"; inner: Schema<unknown> };

/** Parsing never throws: the value's checked copy (unknown object keys dropped), or the issues found. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

export abstract class Schema<T> {
	/** Set only by the phantom: lets `Infer` read T. */
	declare readonly _type: T;
	description: string | undefined;

	abstract readonly kind: Kind;

	/** Checks `value` at `path`, adding what is wrong to `issues`; returns the checked copy. */
	abstract check(value: unknown, path: (string | number)[], issues: Issue[]): unknown;

	parse(value: unknown): Parsed<T> {
		const issues: Issue[] = [];
		const checked = this.check(value, [], issues);
		if (issues.length === 0) return { ok: true, value: checked as T };
		// zod checked unions asynchronously (the SDK parsed arguments with safeParseAsync), so their issues came last.
		const late = issues.filter((issue) => issue.fromUnion);
		const ordered = [...issues.filter((issue) => !issue.fromUnion), ...late];
		return { ok: false, issues: ordered.map(({ path, message }) => ({ path, message })) };
	}

	describe(description: string): this {
		const copy = this.copy();
		copy.description = description;
		return copy;
	}

	optional(): Schema<T | undefined> {
		return new Wrapped<T | undefined>({ kind: "optional", inner: this }, this.description);
	}

	nullable(): Schema<T | null> {
		return new Wrapped<T | null>({ kind: "nullable", inner: this }, this.description);
	}

	/** A new schema like this one (each modifier returns one, so a schema shared between tools never changes). */
	protected copy(): this {
		const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
		return Object.assign(copy, this, { kind: { ...this.kind } });
	}

	protected with(changes: Record<string, unknown>): this {
		const copy = this.copy();
		Object.assign(copy.kind, changes);
		return copy;
	}
}

/** The issue for a value of the wrong type: "Required" when it is missing, as zod says. */
function wrongType(expected: string, value: unknown, path: (string | number)[], issues: Issue[]): undefined {
	issues.push({
		path,
		message: value === undefined ? "Required" : `Expected ${expected}, received ${receivedType(value)}`,
	});
	return undefined;
}

class StringSchema extends Schema<string> {
	readonly kind: Extract<Kind, { kind: "string" }> = { kind: "string" };

	min(length: number): this {
		return this.with({ minLength: length });
	}

	max(length: number): this {
		return this.with({ maxLength: length });
	}

	regex(pattern: RegExp): this {
		return this.with({ pattern });
	}

	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		if (typeof value !== "string") return wrongType("string", value, path, issues);
		const { minLength, maxLength, pattern } = this.kind;
		if (minLength !== undefined && value.length < minLength)
			issues.push({ path, message: `String must contain at least ${minLength} character(s)` });
		if (maxLength !== undefined && value.length > maxLength)
			issues.push({ path, message: `String must contain at most ${maxLength} character(s)` });
		if (pattern !== undefined) {
			pattern.lastIndex = 0;
			if (!pattern.test(value)) issues.push({ path, message: "Invalid" });
		}
		return value;
	}
}

class NumberSchema extends Schema<number> {
	readonly kind: Extract<Kind, { kind: "number" }> = { kind: "number", integer: false };

	int(): this {
		return this.with({ integer: true });
	}

	min(minimum: number): this {
		return this.with({ minimum });
	}

	max(maximum: number): this {
		return this.with({ maximum });
	}

	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		if (typeof value !== "number" || Number.isNaN(value)) return wrongType("number", value, path, issues);
		const { integer, minimum, maximum } = this.kind;
		if (integer && !Number.isInteger(value)) issues.push({ path, message: "Expected integer, received float" });
		if (minimum !== undefined && value < minimum)
			issues.push({ path, message: `Number must be greater than or equal to ${minimum}` });
		if (maximum !== undefined && value > maximum)
			issues.push({ path, message: `Number must be less than or equal to ${maximum}` });
		return value;
	}
}

class PlainSchema<T> extends Schema<T> {
	constructor(
		readonly kind: Extract<Kind, { kind: "boolean" | "null" | "unknown" }>,
		private readonly accepts: (value: unknown) => boolean,
	) {
		super();
	}

	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		return this.accepts(value) ? value : wrongType(this.kind.kind, value, path, issues);
	}
}

class EnumSchema<T extends string> extends Schema<T> {
	readonly kind: Extract<Kind, { kind: "enum" }>;

	constructor(values: readonly T[]) {
		super();
		this.kind = { kind: "enum", values };
	}

	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		const quoted = this.kind.values.map((option) => `'${option}'`).join(" | ");
		if (typeof value !== "string") return wrongType(quoted, value, path, issues);
		if (!this.kind.values.includes(value))
			issues.push({ path, message: `Invalid enum value. Expected ${quoted}, received '${value}'` });
		return value;
	}
}

class LiteralSchema<T extends string | number | boolean> extends Schema<T> {
	readonly kind: Extract<Kind, { kind: "literal" }>;

	constructor(value: T) {
		super();
		this.kind = { kind: "literal", value };
	}

	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		if (value !== this.kind.value)
			issues.push({ path, message: `Invalid literal value, expected ${JSON.stringify(this.kind.value)}` });
		return value;
	}
}

class ArraySchema<T> extends Schema<T[]> {
	readonly kind: Extract<Kind, { kind: "array" }>;

	constructor(items: Schema<T>) {
		super();
		this.kind = { kind: "array", items };
	}

	min(minItems: number): this {
		return this.with({ minItems });
	}

	max(maxItems: number): this {
		return this.with({ maxItems });
	}

	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		if (!Array.isArray(value)) return wrongType("array", value, path, issues);
		const { items, minItems, maxItems } = this.kind;
		if (minItems !== undefined && value.length < minItems)
			issues.push({ path, message: `Array must contain at least ${minItems} element(s)` });
		if (maxItems !== undefined && value.length > maxItems)
			issues.push({ path, message: `Array must contain at most ${maxItems} element(s)` });
		return value.map((item, index) => items.check(item, [...path, index], issues));
	}
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

class ObjectSchema<S extends Shape> extends Schema<ObjectOf<S>> {
	readonly kind: Extract<Kind, { kind: "object" }>;

	constructor(shape: S) {
		super();
		this.kind = { kind: "object", shape };
	}

	/** Keys the shape does not name are dropped, as zod's default object does. */
	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		if (!isPlainObject(value)) return wrongType("object", value, path, issues);
		const checked: Record<string, unknown> = {};
		for (const [key, schema] of Object.entries(this.kind.shape)) {
			const field = Object.hasOwn(value, key) ? value[key] : undefined;
			const result = schema.check(field, [...path, key], issues);
			if (result !== undefined || Object.hasOwn(value, key)) checked[key] = result;
		}
		return checked;
	}
}

class RecordSchema<T> extends Schema<Record<string, T>> {
	readonly kind: Extract<Kind, { kind: "record" }>;

	constructor(values: Schema<T>) {
		super();
		this.kind = { kind: "record", values };
	}

	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		if (!isPlainObject(value)) return wrongType("object", value, path, issues);
		const checked: Record<string, unknown> = {};
		for (const [key, field] of Object.entries(value)) {
			// A "__proto__" key would set the copy's prototype instead of a field: dropped, as zod dropped it.
			if (key !== "__proto__") checked[key] = this.kind.values.check(field, [...path, key], issues);
		}
		return checked;
	}
}

class UnionSchema<T> extends Schema<T> {
	readonly kind: Extract<Kind, { kind: "union" }>;

	constructor(options: readonly Schema<unknown>[]) {
		super();
		this.kind = { kind: "union", options };
	}

	/** The first option the value fits; when none does, one issue, as zod says it. */
	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		for (const option of this.kind.options) {
			const found: Issue[] = [];
			const checked = option.check(value, path, found);
			if (found.length === 0) return checked;
		}
		issues.push({ path, message: "Invalid input", fromUnion: true });
		return undefined;
	}
}

class Wrapped<T> extends Schema<T> {
	constructor(
		readonly kind: Extract<Kind, { kind: "optional" | "nullable" }>,
		description: string | undefined,
	) {
		super();
		this.description = description;
	}

	check(value: unknown, path: (string | number)[], issues: Issue[]): unknown {
		if (value === (this.kind.kind === "optional" ? undefined : null)) return value;
		return this.kind.inner.check(value, path, issues);
	}
}

type Options<U extends readonly Schema<unknown>[]> = { [K in keyof U]: Infer<U[K]> }[number];

/** The builder, spelled as zod spells it, so a tool file reads the same. */
export const z = {
	string: () => new StringSchema(),
	number: () => new NumberSchema(),
	boolean: () => new PlainSchema<boolean>({ kind: "boolean" }, (value) => typeof value === "boolean"),
	null: () => new PlainSchema<null>({ kind: "null" }, (value) => value === null),
	unknown: () => new PlainSchema<unknown>({ kind: "unknown" }, () => true),
	enum: <const T extends string>(values: readonly [T, ...T[]] | readonly T[]) => new EnumSchema<T>(values),
	literal: <const T extends string | number | boolean>(value: T) => new LiteralSchema<T>(value),
	array: <T>(items: Schema<T>) => new ArraySchema<T>(items),
	object: <S extends Shape>(shape: S) => new ObjectSchema<S>(shape),
	/** `record(values)` or, as zod also allows, `record(z.string(), values)`: string keys either way. */
	record: <T>(keysOrValues: Schema<T> | Schema<string>, values?: Schema<T>) =>
		new RecordSchema<T>(values ?? (keysOrValues as Schema<T>)),
	union: <const U extends readonly Schema<unknown>[]>(options: U) => new UnionSchema<Options<U>>(options),
};
