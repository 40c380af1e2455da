/**
 * JavaScript's coercions as json-logic-js relies on them (`==`, `<`, `+`, `cat`…), written out for JSON values so
 * that none can grow without bound: JavaScript would turn an array into a string by joining it, however large;
 * here every such string is measured first and refused past MAX_STRING_LENGTH. Property lookups see only a value's
 * own data (never a prototype: `{"var": "constructor"}` finds nothing).
 */

/** The longest string a query may build (the body cap of a note is 16 MB by default). */
export const MAX_STRING_LENGTH = 16 * 1024 * 1024;
/** The longest array a query may build. */
export const MAX_ARRAY_LENGTH = 100_000;

/** A value a query built that is too large to keep (a string or array past the bounds above). */
export class ValueTooLarge extends Error {
	constructor(what: string) {
		super(`the query builds ${what}`);
		this.name = "ValueTooLarge";
	}
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

const INDEX = /^(?:0|[1-9][0-9]*)$/;

/** `value[key]` for JSON data: own properties only, plus `length` and indexes of arrays and strings. */
export function ownProperty(value: unknown, key: string): unknown {
	if (typeof value === "string" || Array.isArray(value)) {
		if (key === "length") return value.length;
		if (!INDEX.test(key)) return undefined;
		const index = Number(key);
		return index < value.length ? value[index] : undefined;
	}
	if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, key)) return value[key];
	return undefined;
}

/** JsonLogic's truthiness: JavaScript's, except that an empty array is false. */
export function truthy(value: unknown): boolean {
	if (Array.isArray(value) && value.length === 0) return false;
	return Boolean(value);
}

/** `String(value)`, as JavaScript would give it, measured before it is built. */
export function stringOf(value: unknown): string {
	if (typeof value === "string") return value;
	if (Array.isArray(value)) return joined(value, ",");
	if (isPlainObject(value)) return "[object Object]";
	return String(value);
}

/** `Array.prototype.join`: null and undefined elements are empty, nested arrays joined with commas. */
export function joined(values: readonly unknown[], separator: string): string {
	if (joinedLength(values, separator.length, 0) > MAX_STRING_LENGTH)
		throw new ValueTooLarge(`a string longer than ${MAX_STRING_LENGTH} characters`);
	return values.map((value) => (value === null || value === undefined ? "" : stringOf(value))).join(separator);
}

function joinedLength(values: readonly unknown[], separator: number, depth: number): number {
	let length = Math.max(values.length - 1, 0) * separator;
	for (const value of values) {
		if (typeof value === "string") length += value.length;
		else if (Array.isArray(value)) length += depth > 64 ? Infinity : joinedLength(value, 1, depth + 1);
		else if (value !== null && value !== undefined) length += stringOf(value).length;
		if (length > MAX_STRING_LENGTH) return length;
	}
	return length;
}

/** ToPrimitive: arrays and objects become their strings; everything else stays. */
function primitive(value: unknown): unknown {
	return typeof value === "object" && value !== null ? stringOf(value) : value;
}

/** ToNumber, as JavaScript's arithmetic and comparisons apply it. */
export function numberOf(value: unknown): number {
	return Number(primitive(value));
}

/** `a == b`. */
export function looseEquals(a: unknown, b: unknown): boolean {
	if (a === null || a === undefined) return b === null || b === undefined;
	if (b === null || b === undefined) return false;
	const objectA = typeof a === "object";
	const objectB = typeof b === "object";
	if (objectA && objectB) return a === b;
	if (typeof a === typeof b) return a === b;
	if (typeof a === "boolean") return looseEquals(Number(a), b);
	if (typeof b === "boolean") return looseEquals(a, Number(b));
	if (objectA) return looseEquals(primitive(a), b);
	if (objectB) return looseEquals(a, primitive(b));
	return Number(a) === Number(b);
}

/** `a < b`: strings compare by code units, anything else as numbers (NaN compares as neither). */
export function lessThan(a: unknown, b: unknown): boolean {
	const pa = primitive(a);
	const pb = primitive(b);
	if (typeof pa === "string" && typeof pb === "string") return pa < pb;
	return Number(pa) < Number(pb);
}

/** `a <= b`, which JavaScript defines as "not b < a", unless either side is NaN. */
export function atMost(a: unknown, b: unknown): boolean {
	const pa = primitive(a);
	const pb = primitive(b);
	if (typeof pa === "string" && typeof pb === "string") return pa <= pb;
	return Number(pa) <= Number(pb);
}

/** `parseFloat(value)`. */
export function parsedFloat(value: unknown): number {
	return parseFloat(stringOf(value));
}

/** `String(source).substr(start, length)`, PHP-style for a negative length (as json-logic-js does it). */
export function substring(source: unknown, start: unknown, length: unknown): string {
	const text = stringOf(source);
	const from = relativeStart(text.length, integerOf(start));
	const rest = text.slice(from);
	if (length === undefined) return rest;
	const count = integerOf(length);
	return count < 0 ? rest.slice(0, Math.max(rest.length + count, 0)) : rest.slice(0, count);
}

function relativeStart(size: number, start: number): number {
	return start < 0 ? Math.max(size + start, 0) : Math.min(start, size);
}

/** ToIntegerOrInfinity. */
function integerOf(value: unknown): number {
	const number = numberOf(value);
	if (Number.isNaN(number)) return 0;
	return Math.trunc(number);
}

/** `Array.prototype.concat` of every argument (arrays spread one level), measured first. */
export function merged(values: readonly unknown[]): unknown[] {
	const length = values.reduce<number>((total, value) => total + (Array.isArray(value) ? value.length : 1), 0);
	if (length > MAX_ARRAY_LENGTH) throw new ValueTooLarge(`an array of more than ${MAX_ARRAY_LENGTH} items`);
	return values.flatMap((value): unknown[] => (Array.isArray(value) ? (value as unknown[]) : [value]));
}

/** `b.indexOf(a) !== -1` for a string or an array `b`; false for anything else. */
export function contains(a: unknown, b: unknown): boolean {
	if (typeof b === "string") return b.includes(stringOf(a));
	if (Array.isArray(b)) return b.indexOf(a) !== -1;
	return false;
}

/** A result as JSON can carry it: what JSON.stringify would keep (NaN and Infinity as null, undefined left out). */
export function jsonOf(value: unknown): unknown {
	if (typeof value === "number") return Number.isFinite(value) ? value : null;
	if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : jsonOf(item)));
	if (isPlainObject(value)) {
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = jsonOf(item);
		return out;
	}
	return value;
}
