/**
 * A heading's `marker` (its text: replace renames it and keeps its level, delete dissolves the heading line into its
 * parent, the body staying) and its `markerAndContent` (the heading line and its whole section: replace rewrites it,
 * delete removes it, prepend and append add a sibling section before or after it).
 */
import type { Section } from "./markdown/sections";
import { atxHeading, type MarkdownStructure } from "./markdown/structure";
import { contentPreexists, fail, type PatchInstruction, type PatchResult, type PatchWarning } from "./patch";
import { splice, withEol } from "./patch-heading";
import { shiftHeadings, trimBlankEdges } from "./patch-levels";

export function patchHeadingScope(
	content: string,
	doc: MarkdownStructure,
	section: Section,
	instruction: PatchInstruction,
	body: string,
): PatchResult {
	const line = doc.lines[section.line]!;
	if (instruction.scope === "marker") {
		if (instruction.operation === "delete")
			return { ok: true, content: content.slice(0, line.start) + content.slice(line.next) };
		return rename(content, line, instruction, body);
	}
	const warnings: PatchWarning[] = [];
	// Format 2: `#` in the text lands at the target's own level (a sibling); format 1 takes the text as written.
	const text = instruction.relativeHeadings
		? shiftHeadings(trimBlankEdges(body), section.level - 1, warnings)
		: body.replace(/(\r?\n)+$/, "");
	const preexists = contentPreexists(instruction, content.slice(section.start, section.contentEnd), body);
	if (preexists) return preexists;
	switch (instruction.operation) {
		case "replace":
			if (text !== "")
				return splice(content, section.start, section.contentEnd, withEol(text, doc.eol), doc.eol, warnings);
			return remove(content, section);
		case "delete":
			return remove(content, section);
		case "prepend": {
			// A blank line on each side keeps the new section apart from the text above and the heading below.
			const above =
				section.start > 0 &&
				content
					.slice(0, section.start)
					.replace(/\r?\n$/, "")
					.split("\n")
					.pop()!
					.trim() !== "";
			return splice(
				content,
				section.start,
				section.start,
				(above ? doc.eol : "") + text + doc.eol + doc.eol,
				doc.eol,
				warnings,
			);
		}
		case "append":
			return splice(content, section.contentEnd, section.contentEnd, doc.eol + text + doc.eol, doc.eol, warnings);
	}
}

/** Replaces the heading's text; its #s (its level) stay. Format 1 may send a whole heading line, #s included, to change the level too. */
function rename(
	content: string,
	line: { start: number; end: number; text: string },
	instruction: PatchInstruction,
	body: string,
): PatchResult {
	const wanted = body.replace(/(\r?\n)+$/, "").trim();
	const asLine = instruction.relativeHeadings ? null : atxHeading(wanted);
	if (asLine && asLine.text !== "")
		return { ok: true, content: content.slice(0, line.start) + wanted + content.slice(line.end) };
	const prefix = /^ {0,3}#{1,6}/.exec(line.text);
	if (!prefix) return fail("invalid-target", "The heading line could not be read; nothing was changed.");
	return { ok: true, content: content.slice(0, line.start) + `${prefix[0]} ${wanted}` + content.slice(line.end) };
}

/** Removes the heading and its whole section; at the note's end, the blank lines left above it go too. */
function remove(content: string, section: Section): PatchResult {
	const before = content.slice(0, section.start);
	const after = content.slice(section.end);
	return { ok: true, content: after === "" ? before.replace(/(\r?\n)(?:[ \t]*\r?\n)+$/, "$1") : before + after };
}
