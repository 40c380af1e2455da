/**
 * The Local REST API's format 2 PATCH instruction (markdown-patch 2.x): one JSON object naming the target, the
 * operation, the scope and the payload. Read strictly: an unknown field is refused by name rather than ignored, and
 * so is a combination outside the algebra (patch-algebra.ts), before anything is read or written.
 */
import { jsonRefusal } from "./nesting";
import {
	PATCH_SCOPES,
	type HeadingPath,
	type PatchDestination,
	type PatchInstruction,
	type PatchOperation,
	type PatchScope,
	type PatchTargetType,
} from "./patch";
import { algebraError } from "./patch-algebra";

export interface ParsedInstruction {
	instruction: PatchInstruction;
	/** The payload as applyPatch takes it: markdown text, or (frontmatter values) JSON text. */
	body: string;
	/** The `ifMatch` field, as sent. */
	ifMatch?: string;
}

export type InstructionResult = { ok: true; parsed: ParsedInstruction } | { ok: false; detail: string };

export const INSTRUCTION_FIELDS = [
	"targetType",
	"target",
	"operation",
	"scope",
	"within",
	"content",
	"value",
	"destination",
	"ifMatch",
	"createTargetIfMissing",
	"rejectIfContentPreexists",
] as const;
const TARGET_TYPES: readonly PatchTargetType[] = ["heading", "block", "frontmatter"];
const OPERATIONS: readonly PatchOperation[] = ["replace", "prepend", "append", "delete"];
const SHAPE =
	'A PATCH instruction is a JSON object: {"targetType": "heading" | "block" | "frontmatter", ' +
	'"target": ["Heading", "Subheading"] | "block-id" | "key", "operation": "replace" ' +
	'| "prepend" | "append" | "delete", "scope": "content" | "marker" | "markerAndContent" ' +
	'| "parent", "content": "markdown" or "value": <JSON> or "destination": {"parent": ' +
	'[...], "place": "last"}, "ifMatch": "<revision>"}. Nothing was written.';

export function parsePatchInstruction(text: string): InstructionResult {
	const unsafe = jsonRefusal(text);
	if (unsafe !== null) return fail(`The body was not read because ${unsafe}. ${SHAPE}`);
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return fail(`The body is not valid JSON. ${SHAPE}`);
	}
	if (typeof raw !== "object" || raw === null || Array.isArray(raw))
		return fail(`The body is JSON but not an object. ${SHAPE}`);
	const fields = raw as Record<string, unknown>;
	const unknown = Object.keys(fields).filter((key) => !(INSTRUCTION_FIELDS as readonly string[]).includes(key));
	if (unknown.length > 0)
		return fail(
			`Unknown field${unknown.length > 1 ? "s" : ""} ${unknown
				.slice(0, 10)
				.map((key) => JSON.stringify(key))
				.join(", ")}; the fields are ${INSTRUCTION_FIELDS.join(", ")}. Nothing was written.`,
		);

	const {
		targetType,
		target,
		operation,
		scope,
		within,
		content,
		value,
		destination,
		ifMatch,
		createTargetIfMissing,
		rejectIfContentPreexists,
	} = fields;
	if (!TARGET_TYPES.includes(targetType as PatchTargetType))
		return fail(`"targetType" must be "heading", "block" or "frontmatter". ${SHAPE}`);
	if (!OPERATIONS.includes(operation as PatchOperation))
		return fail(`"operation" must be "replace", "prepend", "append" or "delete". ${SHAPE}`);
	if (scope !== undefined && !PATCH_SCOPES.includes(scope as PatchScope))
		return fail(`"scope" must be "content" (the default), "marker", "markerAndContent" or "parent". ${SHAPE}`);
	if (within !== undefined && (typeof within !== "number" || !Number.isSafeInteger(within)))
		return fail(
			'"within" must be a whole number: the index of a block in the section\'s own body ' +
				"(0 the first, -1 the last). Nothing was written.",
		);
	for (const [name, flag] of [
		["createTargetIfMissing", createTargetIfMissing],
		["rejectIfContentPreexists", rejectIfContentPreexists],
	] as const) {
		if (flag !== undefined && typeof flag !== "boolean")
			return fail(`"${name}" must be true or false. Nothing was written.`);
	}
	if (ifMatch !== undefined && (typeof ifMatch !== "string" || ifMatch.trim() === ""))
		return fail(
			'"ifMatch" must be the revision (the document map\'s version, or the ETag) as a string. Nothing was written.',
		);
	if ([content, value, destination].filter((carrier) => carrier !== undefined).length > 1)
		return fail(
			'Send exactly one of "content" (markdown text), "value" (a JSON value) and "destination" ' +
				"(a move), not several. Nothing was written.",
		);
	if (content !== undefined && typeof content !== "string")
		return fail('"content" must be a string of markdown; a JSON value goes in "value". Nothing was written.');

	const type = targetType as PatchTargetType;
	const op = operation as PatchOperation;
	const scoped = (scope ?? "content") as PatchScope;
	const resolved = resolveTarget(type, target);
	if (typeof resolved === "string") return fail(resolved);
	let moveTo: PatchDestination | undefined;
	if (destination !== undefined) {
		const parsed = parseDestination(destination);
		if (typeof parsed === "string") return fail(parsed);
		moveTo = parsed;
	}
	const payload = carrier(type, op, scoped, content, value, moveTo !== undefined);
	if (typeof payload === "string") return fail(payload);
	const instruction: PatchInstruction = {
		operation: op,
		targetType: type,
		target: resolved.target,
		...(resolved.path ? { headingPath: resolved.path, relativeHeadings: true } : {}),
		json: payload.json,
		createTargetIfMissing: createTargetIfMissing === true,
		...(scope !== undefined ? { scope: scoped } : {}),
		...(typeof within === "number" ? { within } : {}),
		...(moveTo ? { destination: moveTo } : {}),
		...(rejectIfContentPreexists === true ? { rejectIfContentPreexists: true } : {}),
	};
	const outside = algebraError(instruction, payload.body);
	if (outside !== null) return fail(outside);
	return { ok: true, parsed: { instruction, body: payload.body, ...(typeof ifMatch === "string" ? { ifMatch } : {}) } };
}

/** The payload as applyPatch takes it, from the one carrier that fits the target and scope; or why none fits. */
function carrier(
	type: PatchTargetType,
	op: PatchOperation,
	scope: PatchScope,
	content: unknown,
	value: unknown,
	move: boolean,
): { body: string; json: boolean } | string {
	if (op === "delete" || move) {
		if (content !== undefined || value !== undefined)
			return (
				`A ${move ? "move" : "delete"} carries no ${content !== undefined ? '"content"' : '"value"'}. ` +
				`Nothing was written.`
			);
		return { body: "", json: false };
	}
	if (scope === "marker") {
		if (typeof content !== "string")
			return (
				`A marker ${op} takes the new ${type === "heading" ? "heading text" : type === "block" ? "block id" : "key"} ` +
				`as "content" (a string). Nothing was written.`
			);
		return { body: content, json: false };
	}
	if (type === "frontmatter") {
		if (scope === "markerAndContent" && value === undefined)
			return 'Whole frontmatter entries go in "value" as a JSON object, e.g. {"status": "done"}. Nothing was written.';
		// As in LRA 5.1, a frontmatter value is JSON and rides in "value"; "content" names a key only (scope marker).
		if (value === undefined)
			return (
				`A frontmatter value goes in "value" as JSON (a text as ${JSON.stringify(typeof content === "string" ? content.slice(0, 40) : "text")}, ` +
				`a list as ["a", "b"]), not in "content". Nothing was written.`
			);
		return { body: JSON.stringify(value), json: true };
	}
	if (value !== undefined) {
		if (type === "heading")
			return 'A heading\'s body is markdown text: send it in "content", not "value". Nothing was written.';
		if (scope !== "content")
			return 'Table rows in "value" go with scope "content" (the table\'s rows). Nothing was written.';
		return { body: JSON.stringify(value), json: true };
	}
	if (content === undefined)
		return (
			`A ${op} needs "content" (markdown text)${type === "block" ? ' or, on a table, "value" (rows)' : ""}. ` +
			`Nothing was written.`
		);
	return { body: content as string, json: false };
}

/** A move's destination: {"parent": [...] | null, "place": "first" | "last" | {"before": [...]} | {"after": [...]}}. */
export function parseDestination(raw: unknown): PatchDestination | string {
	const usage =
		'A "destination" is {"parent": ["Heading"] or null (the top level), "place": "first" ' +
		'| "last" | {"before": ["Heading", "Sibling"]} | {"after": [...]}}. Nothing was written.';
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return usage;
	const { parent, place, ...rest } = raw as Record<string, unknown>;
	if (Object.keys(rest).length > 0) return usage;
	const parentPath = parent === null ? [] : headingList(parent);
	if (parentPath === null) return usage;
	if (place === "first" || place === "last") return { parent: parentPath, place };
	if (typeof place !== "object" || place === null || Array.isArray(place) || Object.keys(place).length !== 1)
		return usage;
	const side = "before" in place ? "before" : "after" in place ? "after" : null;
	const sibling = side ? headingList((place as Record<string, unknown>)[side]) : null;
	if (!side || !sibling || sibling.length === 0) return usage;
	return { parent: parentPath, place: side === "before" ? { before: sibling } : { after: sibling } };
}

function headingList(raw: unknown): HeadingPath | null {
	if (!Array.isArray(raw) || raw.length > 64 || raw.some((part) => typeof part !== "string" || part.trim() === ""))
		return null;
	return (raw as string[]).map((part) => part.trim());
}

/** A heading target is a list of heading texts (a single text is taken as a one-heading path); others a string. */
export function resolveTarget(type: PatchTargetType, target: unknown): { target: string; path?: string[] } | string {
	if (type === "heading") {
		const path = typeof target === "string" ? [target] : target;
		if (!Array.isArray(path) || path.some((part) => typeof part !== "string"))
			return `A heading "target" is a list of heading texts, outermost first, e.g. ["Plan", "Next steps"]. ${SHAPE}`;
		if (path.length === 0)
			return (
				'An empty heading "target" names the whole note, which is not a PATCH target here: ' +
				"PUT the note (with If-Match) or append with POST. Nothing was written."
			);
		return { target: (path as string[]).join("::"), path: path as string[] };
	}
	if (typeof target !== "string" || target.trim() === "")
		return `A ${type} "target" is a string (${type === "block" ? "the block id, without ^" : "the frontmatter key"}). ${SHAPE}`;
	return { target };
}

function fail(detail: string): InstructionResult {
	return { ok: false, detail };
}
