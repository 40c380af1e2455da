/**
 * PATCH as the Local REST API defines it (Operation, Target-Type, Target, or its JSON instruction), computed purely on
 * a note's text: the caller writes the result through the guarded writer, so a patch is checked exactly like a PUT.
 * An instruction is an operation on a scope of a target (LRA 5.1's algebra, see patch-algebra.ts); the heading, block
 * and frontmatter engines carry it out.
 */
import { jsonRefusal, MAX_FRONTMATTER_BYTES } from "./nesting";
import { algebraError } from "./patch-algebra";
import { patchBlock } from "./patch-block";
import { patchFrontmatter } from "./patch-frontmatter";
import { patchHeading } from "./patch-heading";

export { rebaseHeadings } from "./patch-levels";

export type PatchOperation = "append" | "prepend" | "replace" | "delete";

export type PatchTargetType = "heading" | "frontmatter" | "block";

/**
 * What part of the target the operation acts on: its body (`content`, the default), its label (`marker`: a heading's
 * text, a block's id, a frontmatter key), both (`markerAndContent`: a heading's whole section, a whole block, a whole
 * frontmatter entry), or a heading's place in the outline (`parent`: a move, with `destination`).
 */
export type PatchScope = "content" | "marker" | "markerAndContent" | "parent";

export const PATCH_SCOPES: readonly PatchScope[] = ["content", "marker", "markerAndContent", "parent"];

/** A heading path as a list of heading texts, outermost first; empty for the note's top level. */
export type HeadingPath = readonly string[];

/** Where a moved heading section lands: under `parent` (null: the top level), first, last, or beside a sibling. */
export interface PatchDestination {
	parent: HeadingPath | null;
	place: "first" | "last" | { before: HeadingPath } | { after: HeadingPath };
}

export interface PatchInstruction {
	operation: PatchOperation;
	targetType: PatchTargetType;
	/** A heading path (`Heading 1::Subheading`), a frontmatter key or a block id, already percent-decoded. */
	target: string;
	/** A heading path as a list, outermost first (format 2): used instead of splitting `target`. */
	headingPath?: readonly string[];
	/** Format 2: headings in the inserted text are relative, `#` becoming a direct child of the target heading. */
	relativeHeadings?: boolean;
	/** Separates nested headings in `target`; `::` when not given. */
	delimiter?: string;
	/** Frontmatter values, and a table's rows on a block: the body as JSON, or (by default) the body as one string. */
	json?: boolean;
	/** Create a missing heading (at the end of its parent) or frontmatter key instead of failing. */
	createTargetIfMissing?: boolean;
	/** `content` when not given. */
	scope?: PatchScope;
	/** Heading targets: act on one top-level block of the section's own body, by index (negative counts from the end). */
	within?: number;
	/** With scope `parent`: where the section moves to. */
	destination?: PatchDestination;
	/** Refuse an append or prepend whose text (trimmed) is already in the target: a retry never lands twice. */
	rejectIfContentPreexists?: boolean;
	/** Format 1: drop the whitespace at the target's edge where the text joins it (the start for prepend, the end for append). */
	trimTargetWhitespace?: boolean;
}

export type PatchFailure =
	| "target-not-found"
	| "ambiguous-target"
	| "invalid-target"
	| "invalid-value"
	| "invalid-frontmatter"
	/** The instruction combines fields outside the algebra (e.g. `within` with scope `marker`). */
	| "invalid-instruction"
	/** rejectIfContentPreexists: the text is already in the target. */
	| "content-preexists"
	/** A frontmatter rename or insert onto a key that already exists. */
	| "key-collision";

/** Advice about a patch that was applied (LRA's `Markdown-Patch-Warnings`), e.g. a heading level capped at 6. */
export interface PatchWarning {
	code: "heading-depth-overflow";
	message: string;
}

export type PatchResult =
	{ ok: true; content: string; warnings?: PatchWarning[] } | { ok: false; reason: PatchFailure; detail: string };

export const DEFAULT_DELIMITER = "::";

export function applyPatch(content: string, instruction: PatchInstruction, body: string): PatchResult {
	const invalid = algebraError(instruction, body);
	if (invalid !== null) return { ok: false, reason: "invalid-instruction", detail: invalid };
	if (instruction.targetType === "frontmatter") {
		let value: unknown = body;
		if (body.length > MAX_FRONTMATTER_BYTES)
			return fail(
				"invalid-value",
				`The value is over ${MAX_FRONTMATTER_BYTES / 1024} KB, too large for a frontmatter ` +
					`key; nothing was changed. Put long text in the note's body instead.`,
			);
		if (instruction.json) {
			const parsed = parseJson(body);
			if (!parsed.ok) return parsed;
			value = parsed.value;
		}
		return patchFrontmatter(content, instruction, instruction.target.trim(), value);
	}
	if (instruction.targetType === "block") {
		let rows: unknown;
		if (instruction.json && instruction.operation !== "delete") {
			const parsed = parseJson(body);
			if (!parsed.ok) return parsed;
			rows = parsed.value;
		}
		return patchBlock(content, instruction, instruction.target.trim(), body, rows);
	}
	return patchHeading(content, instruction, body);
}

function parseJson(body: string): { ok: true; value: unknown } | Extract<PatchResult, { ok: false }> {
	const unsafe = jsonRefusal(body);
	if (unsafe !== null)
		return fail("invalid-value", `The JSON value was not read because ${unsafe}; nothing was changed.`);
	try {
		return { ok: true, value: JSON.parse(body) as unknown };
	} catch {
		return fail(
			"invalid-value",
			"The body is not valid JSON (Content-Type: application/json); send a JSON value, or send the value as text.",
		);
	}
}

/** rejectIfContentPreexists: the text, trimmed, already occurs in the span it would join. */
export function contentPreexists(instruction: PatchInstruction, span: string, text: string): PatchResult | null {
	if (
		!instruction.rejectIfContentPreexists ||
		(instruction.operation !== "append" && instruction.operation !== "prepend")
	)
		return null;
	const needle = text.trim();
	if (needle === "" || !span.includes(needle)) return null;
	return fail(
		"content-preexists",
		`The text to ${instruction.operation} is already in the target "${instruction.target}" ` +
			`(Reject-If-Content-Preexists), so it was not added again; nothing was changed.`,
	);
}

export function fail(reason: PatchFailure, detail: string): Extract<PatchResult, { ok: false }> {
	return { ok: false, reason, detail };
}
