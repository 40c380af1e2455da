/**
 * JsonLogic (jsonlogic.com), evaluated as json-logic-js 2.0 evaluates it (the library the Local REST API calls),
 * plus the Local REST API's `glob` and `regexp` operators. Written here rather than taken as a dependency because
 * the search must bound it: every step is charged to the search's budget, strings and arrays a query builds are
 * measured before they exist, lookups see only a value's own data, and regular expressions run in linear time.
 * Evaluation is a generator, so a long query over a huge note pauses for the host between slices. Nothing is ever
 * evaluated as code, and `log` prints nothing (it returns its argument, as it does there).
 */
import { compileGlob } from "./glob";
import { compileRegExp, type CompiledRegExp } from "./regexp-machine";
import type { SearchBudget } from "./search-budget";
import type { Steps } from "../steps";
import * as values from "./json-logic-values";

const { truthy, ownProperty } = values;

/** A query that cannot be evaluated (an unknown operation, a pattern refused), with the reason. */
export class JsonLogicError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "JsonLogicError";
	}
}

/** What one search's evaluations share: the budget and the patterns compiled so far. */
export class LogicSession {
	private readonly patterns = new Map<string, CompiledRegExp>();

	constructor(readonly budget: SearchBudget) {}

	/** A compiled `regexp` or `glob` pattern, compiled once per search (a bounded number are kept). */
	pattern(kind: "regexp" | "glob", source: string): CompiledRegExp {
		const key = kind + "\0" + source;
		let compiled = this.patterns.get(key);
		if (compiled === undefined) {
			this.budget.charge(source.length * 8);
			try {
				compiled = kind === "glob" ? compileGlob(source) : compileRegExp(source);
			} catch (error) {
				throw new JsonLogicError(
					`The ${kind} pattern ${JSON.stringify(source)} cannot be used: ${error instanceof Error ? error.message : String(error)}.`,
				);
			}
			if (this.patterns.size < MAX_PATTERNS) this.patterns.set(key, compiled);
		}
		return compiled;
	}
}

const MAX_PATTERNS = 256;
/** What one operation costs, against a character step of a regular expression. */
const OPERATION_COST = 8;

/** Evaluates `logic` over `data` (one note's JSON); a generator that pauses between slices of long work. */
export function* evaluate(logic: unknown, data: unknown, session: LogicSession): Steps<unknown> {
	session.budget.charge(OPERATION_COST);
	if (Array.isArray(logic)) {
		const out: unknown[] = [];
		for (const item of logic) out.push(yield* evaluate(item, data, session));
		return out;
	}
	if (!isLogic(logic)) return logic;
	const op = Object.keys(logic)[0]!;
	const raw = logic[op];
	const args = Array.isArray(raw) ? raw : [raw];
	const control = CONTROL.get(op);
	if (control) return yield* control(args, data, session);
	const evaluated: unknown[] = [];
	for (const arg of args) evaluated.push(yield* evaluate(arg, data, session));
	if (op === "glob" || op === "regexp") {
		const [pattern, field] = evaluated;
		if (typeof pattern !== "string" || typeof field !== "string") return false;
		return yield* session.pattern(op, pattern).matchSteps(field, session.budget);
	}
	const operation = OPERATIONS.get(op);
	if (!operation) throw new JsonLogicError(`Unrecognized operation ${op}`);
	return operation(evaluated, data, session);
}

/** An object with exactly one key is an operation; anything else is data. */
function isLogic(value: unknown): value is Record<string, unknown> {
	return values.isPlainObject(value) && Object.keys(value).length === 1;
}

type Control = (args: unknown[], data: unknown, session: LogicSession) => Steps<unknown>;

/** Operations that decide which of their arguments to evaluate, and on what. */
const CONTROL = new Map<string, Control>([
	["if", conditional],
	["?:", conditional],
	[
		"and",
		function* (args, data, session) {
			let current: unknown;
			for (const arg of args) {
				current = yield* evaluate(arg, data, session);
				if (!truthy(current)) return current;
			}
			return current;
		},
	],
	[
		"or",
		function* (args, data, session) {
			let current: unknown;
			for (const arg of args) {
				current = yield* evaluate(arg, data, session);
				if (truthy(current)) return current;
			}
			return current;
		},
	],
	[
		"filter",
		function* (args, data, session) {
			const items = yield* evaluate(args[0], data, session);
			if (!Array.isArray(items)) return [];
			const kept: unknown[] = [];
			for (const item of items) if (truthy(yield* evaluate(args[1], item, session))) kept.push(item);
			return kept;
		},
	],
	[
		"map",
		function* (args, data, session) {
			const items = yield* evaluate(args[0], data, session);
			if (!Array.isArray(items)) return [];
			const out: unknown[] = [];
			for (const item of items) out.push(yield* evaluate(args[1], item, session));
			return out;
		},
	],
	[
		"reduce",
		function* (args, data, session) {
			const items = yield* evaluate(args[0], data, session);
			let accumulator: unknown = args[2] === undefined ? null : yield* evaluate(args[2], data, session);
			if (!Array.isArray(items)) return accumulator;
			for (const current of items as unknown[])
				accumulator = yield* evaluate(args[1], { current, accumulator }, session);
			return accumulator;
		},
	],
	["all", quantifier("all")],
	["some", quantifier("some")],
	["none", quantifier("none")],
]);

function* conditional(args: unknown[], data: unknown, session: LogicSession): Steps<unknown> {
	let index = 0;
	for (; index < args.length - 1; index += 2) {
		if (truthy(yield* evaluate(args[index], data, session))) return yield* evaluate(args[index + 1], data, session);
	}
	if (args.length === index + 1) return yield* evaluate(args[index], data, session);
	return null;
}

function quantifier(kind: "all" | "some" | "none"): Control {
	return function* (args, data, session) {
		const items = yield* evaluate(args[0], data, session);
		// All of nothing is false; some of nothing is false; none of nothing is true.
		if (!Array.isArray(items) || items.length === 0) return kind === "none";
		for (const item of items) {
			const hit = truthy(yield* evaluate(args[1], item, session));
			if (kind === "all" && !hit) return false;
			if (kind === "some" && hit) return true;
			if (kind === "none" && hit) return false;
		}
		return kind !== "some";
	};
}

type Operation = (args: unknown[], data: unknown, session: LogicSession) => unknown;

/** Charges the budget for a string a value operation built or read. */
function charged<T>(session: LogicSession, size: number, value: T): T {
	session.budget.charge(size >> 4);
	return value;
}

const OPERATIONS = new Map<string, Operation>([
	["==", ([a, b]) => values.looseEquals(a, b)],
	["===", ([a, b]) => a === b],
	["!=", ([a, b]) => !values.looseEquals(a, b)],
	["!==", ([a, b]) => a !== b],
	[">", ([a, b]) => values.lessThan(b, a)],
	[">=", ([a, b]) => values.atMost(b, a)],
	[
		"<",
		(args) =>
			args.length < 3
				? values.lessThan(args[0], args[1])
				: values.lessThan(args[0], args[1]) && values.lessThan(args[1], args[2]),
	],
	[
		"<=",
		(args) =>
			args.length < 3
				? values.atMost(args[0], args[1])
				: values.atMost(args[0], args[1]) && values.atMost(args[1], args[2]),
	],
	["!!", ([a]) => truthy(a)],
	["!", ([a]) => !truthy(a)],
	["%", ([a, b]) => values.numberOf(a) % values.numberOf(b)],
	["log", ([a]) => a],
	["in", ([a, b], _data, session) => charged(session, typeof b === "string" ? b.length : 0, values.contains(a, b))],
	[
		"cat",
		(args, _data, session) => {
			const text = values.joined(args, "");
			return charged(session, text.length, text);
		},
	],
	[
		"substr",
		([source, start, length], _data, session) => {
			const text = values.substring(source, start, length);
			return charged(session, text.length, text);
		},
	],
	["+", (args) => args.reduce<number>((sum, value) => sum + values.parsedFloat(value), 0)],
	[
		"*",
		(args) => {
			if (args.length === 0) throw new JsonLogicError("* needs at least one value");
			return args.length === 1
				? args[0]
				: args
						.slice(1)
						.reduce<number>((product, value) => product * values.parsedFloat(value), values.parsedFloat(args[0]));
		},
	],
	["-", ([a, b]) => (b === undefined ? -values.numberOf(a) : values.numberOf(a) - values.numberOf(b))],
	["/", ([a, b]) => values.numberOf(a) / values.numberOf(b)],
	["min", (args) => Math.min(...args.map(values.numberOf))],
	["max", (args) => Math.max(...args.map(values.numberOf))],
	[
		"merge",
		(args, _data, session) => {
			const out = values.merged(args);
			return charged(session, out.length * 16, out);
		},
	],
	["var", ([path, fallback], data) => lookup(data, path, fallback)],
	["missing", (args, data) => missing(Array.isArray(args[0]) ? args[0] : args, data)],
	[
		"missing_some",
		([needed, options], data) => {
			const list = Array.isArray(options) ? options : [options];
			const absent = missing(Array.isArray(list[0]) ? list[0] : list, data);
			// json-logic-js counts `options.length`: a lone key that is not a string has none, so nothing is enough.
			const size = typeof options === "string" || Array.isArray(options) ? options.length : NaN;
			return size - absent.length >= values.numberOf(needed) ? [] : absent;
		},
	],
]);

/** `{"var": "a.b"}`: a dotted path into the data ("" or null: the data itself), or the fallback (else null). */
export function lookup(data: unknown, path: unknown, fallback?: unknown): unknown {
	const notFound = fallback === undefined ? null : fallback;
	if (path === undefined || path === null || path === "") return data;
	let value = data;
	for (const key of values.stringOf(path).split(".")) {
		if (value === null || value === undefined) return notFound;
		value = ownProperty(value, key);
		if (value === undefined) return notFound;
	}
	return value;
}

function missing(keys: readonly unknown[], data: unknown): unknown[] {
	return keys.filter((key) => {
		// As `{"var": key}` reads it: a key that is a list is var's arguments (a path and a fallback).
		const value = Array.isArray(key) ? lookup(data, key[0], key[1]) : lookup(data, key);
		return value === null || value === "";
	});
}

/** The Local REST API's rule for which results a search returns: not null, false, 0, "", [] or {}. */
export function isSearchHit(value: unknown): boolean {
	if (value === undefined || value === null) return false;
	if (Array.isArray(value)) return value.length > 0;
	if (typeof value === "object") return Object.keys(value).length > 0;
	return Boolean(value);
}
