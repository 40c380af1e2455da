/**
 * PATCH as the Local REST API defines it (Operation, Target-Type, Target, or its JSON instruction), computed purely on
 * a note's text: the caller writes the result through the guarded writer, so a patch is checked exactly like a PUT.
 */
import { headingSections, type Section } from "./markdown/sections";
import { parseMarkdown, type MarkdownStructure } from "./markdown/structure";
import { jsonRefusal, MAX_FRONTMATTER_BYTES } from "./nesting";
import { patchBlock } from "./patch-block";
import { patchFrontmatter } from "./patch-frontmatter";

export type PatchOperation = "append" | "prepend" | "replace" | "delete";

export type PatchTargetType = "heading" | "frontmatter" | "block";

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
	/** Frontmatter values: the body as JSON, or (by default) the body as one string. */
	json?: boolean;
	/** Create a missing heading (at the end of its parent) or frontmatter key instead of failing. */
	createTargetIfMissing?: boolean;
}

export type PatchFailure = "target-not-found" | "ambiguous-target" | "invalid-target" | "invalid-value" | "invalid-frontmatter";

export type PatchResult = { ok: true; content: string } | { ok: false; reason: PatchFailure; detail: string };

export const DEFAULT_DELIMITER = "::";

export function applyPatch(content: string, instruction: PatchInstruction, body: string): PatchResult {
	if (instruction.targetType === "frontmatter") {
		let value: unknown = body;
		if (body.length > MAX_FRONTMATTER_BYTES) return fail("invalid-value", `The value is over ${MAX_FRONTMATTER_BYTES / 1024} KB, too large for a frontmatter key; nothing was changed. Put long text in the note's body instead.`);
		if (instruction.json) {
			const unsafe = jsonRefusal(body);
			if (unsafe !== null) return fail("invalid-value", `The JSON value was not read because ${unsafe}; nothing was changed.`);
			try {
				value = JSON.parse(body);
			} catch {
				return fail("invalid-value", "The body is not valid JSON (Content-Type: application/json); send a JSON value, or send the value as text.");
			}
		}
		return patchFrontmatter(content, instruction.operation, instruction.target.trim(), value, instruction.createTargetIfMissing === true);
	}
	if (instruction.targetType === "block") return patchBlock(content, instruction.operation, instruction.target.trim(), body, instruction.createTargetIfMissing === true);
	return patchHeading(content, instruction, body);
}

function patchHeading(content: string, instruction: PatchInstruction, body: string): PatchResult {
	const delimiter = instruction.delimiter || DEFAULT_DELIMITER;
	const path = (instruction.headingPath ?? instruction.target.split(delimiter)).map((part) => part.trim());
	if (path.some((part) => part === "" || /[\r\n]/.test(part))) {
		return fail("invalid-target", `The heading path "${instruction.target}" has an empty part or a line break; name each heading, outermost first, separated by "${delimiter}".`);
	}
	const doc = parseMarkdown(content);
	const matches = headingSections(doc, path);
	if (matches.length > 1) {
		return fail("ambiguous-target", `${matches.length} headings have the path "${path.join(delimiter)}", so the patch could not tell which one you meant; nothing was changed. Name the enclosing headings too, or rename one.`);
	}
	const section = matches[0];
	if (!section) {
		if (instruction.createTargetIfMissing && instruction.operation !== "delete") return createHeading(content, doc, path, body, delimiter, instruction.relativeHeadings === true);
		return notFound(doc, path, delimiter);
	}
	const text = withEol(instruction.relativeHeadings ? rebaseHeadings(body, section.level) : body, doc.eol);
	switch (instruction.operation) {
		case "append":
			return splice(content, section.contentEnd, section.contentEnd, text, doc.eol);
		case "prepend":
			return splice(content, section.contentStart, section.contentStart, text, doc.eol);
		case "replace":
			return splice(content, section.contentStart, section.contentEnd, text, doc.eol);
		case "delete":
			// The section's content goes; its heading stays (format 2's `content` scope).
			return splice(content, section.contentStart, section.contentEnd, "", doc.eol);
	}
}

/** Shifts the headings in `text` (outside code) so that `#` sits right below a heading of `level`; never past `######`. */
export function rebaseHeadings(text: string, level: number): string {
	const doc = parseMarkdown(text);
	if (doc.headings.length === 0 || level === 0) return text;
	let result = "";
	let from = 0;
	for (const heading of doc.headings) {
		const line = doc.lines[heading.line]!;
		const hashes = /#+/.exec(line.text)!;
		const at = line.start + hashes.index;
		result += text.slice(from, at) + "#".repeat(Math.min(6, heading.level + level));
		from = at + hashes[0].length;
	}
	return result + text.slice(from);
}

/** Adds the missing end of `path` as new headings at the end of the deepest heading that exists (or of the note). */
function createHeading(content: string, doc: MarkdownStructure, path: readonly string[], body: string, delimiter: string, relative: boolean): PatchResult {
	// Checked first: a path of thousands of parts would otherwise search the note once per part (minutes of work).
	if (path.length > 6) return fail("invalid-target", TOO_DEEP);
	let parent: Section | null = null;
	let depth = path.length - 1;
	for (; depth > 0; depth--) {
		const matches = headingSections(doc, path.slice(0, depth));
		if (matches.length > 1) return fail("ambiguous-target", `Several headings have the path "${path.slice(0, depth).join(delimiter)}", so the new heading has no single place; nothing was changed.`);
		if (matches[0]) {
			parent = matches[0];
			break;
		}
	}
	const level = (parent?.level ?? 0) + 1;
	if (level + path.length - depth - 1 > 6) return fail("invalid-target", TOO_DEEP);
	const headings = path.slice(depth).map((text, index) => "#".repeat(level + index) + " " + text + doc.eol).join("");
	const at = parent ? parent.contentEnd : content.length;
	// A blank line keeps the new heading apart from text above it, as markdown editors write it.
	const before = content.slice(0, at);
	const lastLine = before.replace(/\r?\n$/, "").split("\n").pop() ?? "";
	const gap = parent && at === parent.contentStart ? "" : lastLine.trim() === "" ? "" : doc.eol;
	const text = relative ? rebaseHeadings(body, level + path.length - depth - 1) : body;
	return splice(content, at, at, gap + headings + withEol(text, doc.eol), doc.eol);
}

const TOO_DEEP = "Markdown headings go no deeper than level 6, so the missing headings cannot be created.";

/** Replaces content[from, to) with `text`, first ending an unterminated last line so the text starts on its own line. */
function splice(content: string, from: number, to: number, text: string, eol: string): PatchResult {
	const needsBreak = from > 0 && content[from - 1] !== "\n" && text !== "";
	return { ok: true, content: content.slice(0, from) + (needsBreak ? eol : "") + text + content.slice(to) };
}

function withEol(text: string, eol: string): string {
	return text === "" || text.endsWith("\n") ? text : text + eol;
}

function notFound(doc: MarkdownStructure, path: readonly string[], delimiter: string): PatchResult {
	const known = doc.headings.slice(0, 20).map((heading) => `${"#".repeat(heading.level)} ${heading.text}`);
	return fail("target-not-found", `The note has no heading at the path "${path.join(delimiter)}" (nested headings are named outermost first, separated by "${delimiter}"), so nothing was changed.` +
		(known.length > 0 ? ` Its headings: ${known.join(" | ")}.` : " It has no headings.") + " Send Create-Target-If-Missing: true (createTargetIfMissing in a JSON instruction) to add it.");
}

function fail(reason: PatchFailure, detail: string): PatchResult {
	return { ok: false, reason, detail };
}
