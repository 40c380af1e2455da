/**
 * The shape checks of the requests we serve, before a handler sees them. A request whose params are of the wrong
 * type is answered -32603 with the issues as a JSON list, worded as the MCP SDK 1.32 (zod 4) answered, since clients
 * and our tests have seen exactly that. Only what a handler reads is checked; other fields pass as they are.
 */

type Expected = "string" | "object" | "record";

interface Field {
	key: string;
	expected: Expected;
	optional?: boolean;
	/** Fields inside this one (an object), checked when it is present and of the right type. */
	fields?: Field[];
}

const INITIALIZE: Field[] = [
	{ key: "protocolVersion", expected: "string" },
	{ key: "capabilities", expected: "object" },
	{
		key: "clientInfo",
		expected: "object",
		fields: [
			{ key: "name", expected: "string" },
			{ key: "version", expected: "string" },
		],
	},
];
const CURSOR: Field[] = [{ key: "cursor", expected: "string", optional: true }];
const URI: Field[] = [{ key: "uri", expected: "string" }];

/** Each method's params: required (an object) when it has required fields, else optional. */
const PARAMS: Readonly<Record<string, Field[]>> = {
	initialize: INITIALIZE,
	"tools/list": CURSOR,
	"tools/call": [
		{ key: "name", expected: "string" },
		{ key: "arguments", expected: "record", optional: true },
	],
	"resources/list": CURSOR,
	"resources/templates/list": CURSOR,
	"resources/read": URI,
	"resources/subscribe": URI,
	"resources/unsubscribe": URI,
};

interface ParamIssue {
	expected: Expected;
	code: "invalid_type";
	path: string[];
	message: string;
}

/** What is wrong with a request's params, as the SDK's error message said it; null when nothing is. */
export function paramsProblem(method: string, params: unknown): string | null {
	// Own keys only: "constructor" or "__proto__" is a method we do not check, not Object's prototype.
	if (!Object.hasOwn(PARAMS, method)) return null;
	const fields = PARAMS[method]!;
	const issues: ParamIssue[] = [];
	const required = fields.some((field) => !field.optional);
	check({ key: "params", expected: "object", optional: !required, fields }, params, [], issues);
	return issues.length === 0 ? null : JSON.stringify(issues, null, 2);
}

function check(field: Field, value: unknown, parent: string[], issues: ParamIssue[]): void {
	const path = [...parent, field.key];
	if (value === undefined && field.optional) return;
	if (!fits(field.expected, value)) {
		issues.push({
			expected: field.expected,
			code: "invalid_type",
			path,
			message: `Invalid input: expected ${field.expected}, received ${received(value)}`,
		});
		return;
	}
	const record = value as Record<string, unknown>;
	for (const inner of field.fields ?? []) check(inner, record[inner.key], path, issues);
}

function fits(expected: Expected, value: unknown): boolean {
	if (expected === "string") return typeof value === "string";
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function received(value: unknown): string {
	if (value === null) return "null";
	return Array.isArray(value) ? "array" : typeof value;
}
