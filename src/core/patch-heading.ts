/**
 * PATCH of a heading: its section's body (scope `content`, the default), its text (`marker`: a rename that keeps the
 * level), its whole section (`markerAndContent`), one block of its body (`within`), or its place (`parent`: a move).
 */
import { parseOccurrence } from "./markdown/occurrences";
import { headingSections, type Section } from "./markdown/sections";
import { parseMarkdown, type MarkdownStructure } from "./markdown/structure";
import {
	contentPreexists,
	DEFAULT_DELIMITER,
	fail,
	type PatchInstruction,
	type PatchResult,
	type PatchWarning,
} from "./patch";
import { patchHeadingScope } from "./patch-heading-scopes";
import { shiftHeadings } from "./patch-levels";
import { moveHeading } from "./patch-move";
import { patchWithin } from "./patch-within";

export function patchHeading(content: string, instruction: PatchInstruction, body: string): PatchResult {
	const delimiter = instruction.delimiter || DEFAULT_DELIMITER;
	const path = (instruction.headingPath ?? instruction.target.split(delimiter)).map((part) => part.trim());
	const bad = badPath(path, instruction.target, delimiter);
	if (bad) return bad;
	const doc = parseMarkdown(content);
	const found = findSection(doc, path, delimiter);
	if (!found.ok) {
		// A key of a later occurrence names a heading that exists or nothing: it is never a heading's text to create.
		const creatable =
			instruction.createTargetIfMissing &&
			instruction.operation !== "delete" &&
			path.every((key) => parseOccurrence(key).occurrence === 1);
		if (found.reason === "target-not-found" && creatable)
			return createHeading(content, doc, path, body, delimiter, instruction.relativeHeadings === true);
		return found;
	}
	const section = found.section;
	const scope = instruction.scope ?? "content";
	if (scope === "parent" && instruction.destination)
		return moveHeading(content, doc, section, path, instruction.destination, delimiter);
	if (instruction.within !== undefined) return patchWithin(content, doc, section, instruction, body);
	if (scope === "marker" || scope === "markerAndContent")
		return patchHeadingScope(content, doc, section, instruction, body);

	const warnings: PatchWarning[] = [];
	const text = withEol(instruction.relativeHeadings ? shiftHeadings(body, section.level, warnings) : body, doc.eol);
	const preexists = contentPreexists(instruction, content.slice(section.contentStart, section.contentEnd), body);
	if (preexists) return preexists;
	const trim = instruction.trimTargetWhitespace === true;
	switch (instruction.operation) {
		case "append": {
			// Trim-Target-Whitespace: the section's trailing spaces go too (its blank lines never separate the text).
			const at = trim
				? section.contentStart + content.slice(section.contentStart, section.contentEnd).trimEnd().length
				: section.contentEnd;
			return splice(content, at, section.contentEnd, text, doc.eol, warnings);
		}
		case "prepend": {
			// Trim-Target-Whitespace: blank lines between the heading and its body go; indentation stays.
			const blank = /^(?:[ \t]*\r?\n)*/.exec(content.slice(section.contentStart, section.contentEnd))![0].length;
			return splice(content, section.contentStart, section.contentStart + (trim ? blank : 0), text, doc.eol, warnings);
		}
		case "replace":
			return splice(content, section.contentStart, section.contentEnd, text, doc.eol, warnings);
		case "delete":
			// The section's content goes; its heading stays.
			return splice(content, section.contentStart, section.contentEnd, "", doc.eol, warnings);
	}
}

function badPath(path: readonly string[], target: string, delimiter: string): PatchResult | null {
	if (path.length > 0 && path.every((part) => part !== "" && !/[\r\n]/.test(part))) return null;
	return fail(
		"invalid-target",
		`The heading path "${target}" has an empty part or a line break; name each heading, ` +
			`outermost first, separated by "${delimiter}".`,
	);
}

/** The one section at `path`, or why there is none. */
export function findSection(
	doc: MarkdownStructure,
	path: readonly string[],
	delimiter: string,
): { ok: true; section: Section } | Extract<PatchResult, { ok: false }> {
	// Each heading has its own key (a repeat of a sibling carries an occurrence suffix), so at most one matches.
	const section = headingSections(doc, path)[0];
	if (section) return { ok: true, section };
	const known = doc.headings.slice(0, 20).map((heading) => `${"#".repeat(heading.level)} ${heading.text}`);
	return fail(
		"target-not-found",
		`The note has no heading at the path "${path.join(delimiter)}" (nested headings are ` +
			`named outermost first, separated by "${delimiter}"), so nothing was changed.` +
			(known.length > 0 ? ` Its headings: ${known.join(" | ")}.` : " It has no headings.") +
			" Send Create-Target-If-Missing: true (createTargetIfMissing in a JSON instruction) to add it.",
	);
}

/** Adds the missing end of `path` as new headings at the end of the deepest heading that exists (or of the note). */
function createHeading(
	content: string,
	doc: MarkdownStructure,
	path: readonly string[],
	body: string,
	delimiter: string,
	relative: boolean,
): PatchResult {
	// Checked first: a path of thousands of parts would otherwise search the note once per part (minutes of work).
	if (path.length > 6) return fail("invalid-target", TOO_DEEP);
	let parent: Section | null = null;
	let depth = path.length - 1;
	for (; depth > 0; depth--) {
		const match = headingSections(doc, path.slice(0, depth))[0];
		if (match) {
			parent = match;
			break;
		}
	}
	const level = (parent?.level ?? 0) + 1;
	if (level + path.length - depth - 1 > 6) return fail("invalid-target", TOO_DEEP);
	const headings = path
		.slice(depth)
		.map((text, index) => "#".repeat(level + index) + " " + text + doc.eol)
		.join("");
	const at = parent ? parent.contentEnd : content.length;
	// A blank line keeps the new heading apart from text above it, as markdown editors write it.
	const before = content.slice(0, at);
	const lastLine =
		before
			.replace(/\r?\n$/, "")
			.split("\n")
			.pop() ?? "";
	const gap = parent && at === parent.contentStart ? "" : lastLine.trim() === "" ? "" : doc.eol;
	const warnings: PatchWarning[] = [];
	const text = relative ? shiftHeadings(body, level + path.length - depth - 1, warnings) : body;
	return splice(content, at, at, gap + headings + withEol(text, doc.eol), doc.eol, warnings);
}

const TOO_DEEP = "Markdown headings go no deeper than level 6, so the missing headings cannot be created.";

/** Replaces content[from, to) with `text`, first ending an unterminated last line so the text starts on its own line. */
export function splice(
	content: string,
	from: number,
	to: number,
	text: string,
	eol: string,
	warnings: PatchWarning[] = [],
): PatchResult {
	const needsBreak = from > 0 && content[from - 1] !== "\n" && text !== "";
	return {
		ok: true,
		content: content.slice(0, from) + (needsBreak ? eol : "") + text + content.slice(to),
		...(warnings.length > 0 ? { warnings } : {}),
	};
}

export function withEol(text: string, eol: string): string {
	return text === "" || text.endsWith("\n") ? text : text + eol;
}
