/**
 * The Local REST API's format 2 PATCH instruction (markdown-patch 2.x): one JSON object naming the target, the
 * operation and the payload. Read strictly: an unknown field, or a part of the format we do not carry out (scopes
 * other than `content`, moves, table rows), is refused by name rather than ignored.
 */
import { jsonRefusal } from "./nesting";
import type { PatchInstruction, PatchOperation, PatchTargetType } from "./patch";

export interface ParsedInstruction {
	instruction: PatchInstruction;
	/** The payload as applyPatch takes it: markdown text, or (frontmatter values) JSON text. */
	body: string;
	/** The `ifMatch` field, as sent. */
	ifMatch?: string;
}

export type InstructionResult = { ok: true; parsed: ParsedInstruction } | { ok: false; detail: string };

export const INSTRUCTION_FIELDS = ["targetType", "target", "operation", "scope", "content", "value", "destination", "ifMatch", "createTargetIfMissing", "rejectIfContentPreexists"] as const;
const TARGET_TYPES: readonly PatchTargetType[] = ["heading", "block", "frontmatter"];
const OPERATIONS: readonly PatchOperation[] = ["replace", "prepend", "append", "delete"];
const SHAPE = 'A PATCH instruction is a JSON object: {"targetType": "heading" | "block" | "frontmatter", "target": ["Heading", "Subheading"] | "block-id" | "key", "operation": "replace" | "prepend" | "append" | "delete", "content": "markdown" or "value": <JSON>, "ifMatch": "<revision>", "createTargetIfMissing": true}. Nothing was written.';

export function parsePatchInstruction(text: string): InstructionResult {
	const unsafe = jsonRefusal(text);
	if (unsafe !== null) return fail(`The body was not read because ${unsafe}. ${SHAPE}`);
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return fail(`The body is not valid JSON. ${SHAPE}`);
	}
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail(`The body is JSON but not an object. ${SHAPE}`);
	const fields = raw as Record<string, unknown>;
	const unknown = Object.keys(fields).filter((key) => !(INSTRUCTION_FIELDS as readonly string[]).includes(key));
	if (unknown.length > 0) return fail(`Unknown field${unknown.length > 1 ? "s" : ""} ${unknown.slice(0, 10).map((key) => JSON.stringify(key)).join(", ")}; the fields are ${INSTRUCTION_FIELDS.join(", ")}. Nothing was written.`);

	const { targetType, target, operation, scope, content, value, ifMatch, createTargetIfMissing, rejectIfContentPreexists } = fields;
	if (!TARGET_TYPES.includes(targetType as PatchTargetType)) return fail(`"targetType" must be "heading", "block" or "frontmatter". ${SHAPE}`);
	if (!OPERATIONS.includes(operation as PatchOperation)) return fail(`"operation" must be "replace", "prepend", "append" or "delete". ${SHAPE}`);
	if (scope !== undefined && scope !== "content") return fail(`"scope": ${JSON.stringify(scope)} is not supported here; only "content" (the default: a heading's body, a block's text, a frontmatter value) is. To rename or move a heading, GET the note and PUT it whole with If-Match. Nothing was written.`);
	if (fields.destination !== undefined) return fail('"destination" (moving a heading) is not supported here. GET the note and PUT it whole with If-Match instead. Nothing was written.');
	if (rejectIfContentPreexists !== undefined && rejectIfContentPreexists !== false) return fail('"rejectIfContentPreexists" is not supported here; send an ifMatch instead, so a retry after a lost answer is refused as stale. Nothing was written.');
	if (createTargetIfMissing !== undefined && typeof createTargetIfMissing !== "boolean") return fail('"createTargetIfMissing" must be true or false. Nothing was written.');
	if (ifMatch !== undefined && (typeof ifMatch !== "string" || ifMatch.trim() === "")) return fail('"ifMatch" must be the revision (the document map\'s version, or the ETag) as a string. Nothing was written.');
	if (content !== undefined && value !== undefined) return fail('Send exactly one of "content" (markdown text) and "value" (a JSON value), not both. Nothing was written.');
	if (content !== undefined && typeof content !== "string") return fail('"content" must be a string of markdown; a JSON value goes in "value". Nothing was written.');

	const type = targetType as PatchTargetType;
	const op = operation as PatchOperation;
	const resolved = resolveTarget(type, target);
	if (typeof resolved === "string") return fail(resolved);
	let body: string;
	let json = false;
	if (op === "delete") {
		body = "";
	} else if (type === "frontmatter") {
		if (value === undefined && content === undefined) return fail('A frontmatter patch needs "value" (any JSON value) or "content" (a string). Nothing was written.');
		body = value === undefined ? (content as string) : JSON.stringify(value);
		json = value !== undefined;
	} else {
		if (value !== undefined) return fail(type === "heading" ? 'A heading\'s body is markdown text: send it in "content", not "value". Nothing was written.' : 'Table rows in "value" are not supported here; send the block\'s new text as markdown in "content". Nothing was written.');
		if (content === undefined) return fail(`A ${op} needs "content" (markdown text). Nothing was written.`);
		body = content;
	}
	const instruction: PatchInstruction = {
		operation: op,
		targetType: type,
		target: resolved.target,
		...(resolved.path ? { headingPath: resolved.path, relativeHeadings: true } : {}),
		json,
		createTargetIfMissing: createTargetIfMissing === true,
	};
	return { ok: true, parsed: { instruction, body, ...(typeof ifMatch === "string" ? { ifMatch } : {}) } };
}

/** A heading target is a list of heading texts (a single text is taken as a one-heading path); others a string. */
export function resolveTarget(type: PatchTargetType, target: unknown): { target: string; path?: string[] } | string {
	if (type === "heading") {
		const path = typeof target === "string" ? [target] : target;
		if (!Array.isArray(path) || path.some((part) => typeof part !== "string")) return `A heading "target" is a list of heading texts, outermost first, e.g. ["Plan", "Next steps"]. ${SHAPE}`;
		if (path.length === 0) return 'An empty heading "target" names the whole note, which is not a PATCH target here: PUT the note (with If-Match) or append with POST. Nothing was written.';
		return { target: (path as string[]).join("::"), path: path as string[] };
	}
	if (typeof target !== "string" || target.trim() === "") return `A ${type} "target" is a string (${type === "block" ? "the block id, without ^" : "the frontmatter key"}). ${SHAPE}`;
	return { target };
}

function fail(detail: string): InstructionResult {
	return { ok: false, detail };
}
