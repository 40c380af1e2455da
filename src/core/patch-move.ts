/**
 * Scope `parent`: a heading's section (its heading line and whole subtree, text unchanged) moves under another
 * heading, or to the note's top level, first, last, or before or after one of its new siblings. Its headings are
 * re-levelled to fit there. Nothing is lost: the moved text is the text cut, byte for byte but for the #s.
 */
import { headingSections, type Section } from "./markdown/sections";
import { parseMarkdown, type MarkdownStructure } from "./markdown/structure";
import { fail, type HeadingPath, type PatchDestination, type PatchResult, type PatchWarning } from "./patch";
import { findSection } from "./patch-heading";
import { shiftHeadings } from "./patch-levels";

export function moveHeading(
	content: string,
	doc: MarkdownStructure,
	section: Section,
	path: HeadingPath,
	destination: PatchDestination,
	delimiter: string,
): PatchResult {
	const parentPath = destination.parent ?? [];
	if (parentPath.length >= path.length && path.every((text, index) => parentPath[index] === text)) {
		return fail(
			"invalid-instruction",
			`A section cannot move under itself or one of its own subheadings ("${parentPath.join(delimiter)}"); ` +
				`nothing was changed.`,
		);
	}
	if (parentPath.length > 0) {
		const parent = findSection(doc, parentPath, delimiter);
		if (!parent.ok)
			return parent.reason === "target-not-found"
				? fail(
						"target-not-found",
						`The destination parent "${parentPath.join(delimiter)}" is not a heading in the note; nothing was changed.`,
					)
				: parent;
	}
	const eol = doc.eol;
	// The section cut out whole, ending with a line break; the note closed up behind it.
	let moved = content.slice(section.start, section.end).replace(/(?:\r?\n[ \t]*)*$/, "") + eol;
	const cutBefore = content.slice(0, section.start);
	// Cut from the note's end, the blank lines that led up to it go too.
	const rest =
		section.end >= content.length
			? cutBefore.replace(/(\r?\n)(?:[ \t]*\r?\n)+$/, "$1")
			: cutBefore + content.slice(section.end);
	const after = parseMarkdown(rest);
	const parent = parentPath.length > 0 ? (headingSections(after, parentPath)[0] ?? null) : null;
	if (parentPath.length > 0 && parent === null)
		return fail(
			"invalid-instruction",
			"The destination parent could not be found once the section was cut out; nothing was changed.",
		);
	const level = (parent?.level ?? 0) + 1;
	const warnings: PatchWarning[] = [];
	moved = shiftHeadings(moved, level - section.level, warnings);
	const at = insertionPoint(rest, after, parent, parentPath, destination.place, delimiter);
	if (typeof at !== "number") return at;
	// A blank line above and below keeps the moved section apart from its neighbours.
	const before = rest.slice(0, at);
	const gapAbove = before === "" || /\n[ \t]*\r?\n$/.test(before) ? "" : before.endsWith("\n") ? eol : eol + eol;
	const gapBelow = at < rest.length && !/^[ \t]*\r?\n/.test(rest.slice(at)) ? eol : "";
	return {
		ok: true,
		content: before + gapAbove + moved + gapBelow + rest.slice(at),
		...(warnings.length > 0 ? { warnings } : {}),
	};
}

/** Where the section goes in `rest` (the note without it). */
function insertionPoint(
	rest: string,
	doc: MarkdownStructure,
	parent: Section | null,
	parentPath: HeadingPath,
	place: PatchDestination["place"],
	delimiter: string,
): number | PatchResult {
	if (place === "last") return parent ? parent.end : rest.length;
	if (place === "first") {
		// Before the parent's first subheading, or after its body when it has none.
		const from = parent ? parent.line : -1;
		const child = doc.headings.find(
			(heading) => heading.line > from && (!parent || doc.lines[heading.line]!.start < parent.end),
		);
		return child ? doc.lines[child.line]!.start : parent ? parent.end : rest.length;
	}
	const sibling = "before" in place ? place.before : place.after;
	// A sibling is named by its full path, or by its own text alone.
	const full =
		sibling.length === parentPath.length + 1 && parentPath.every((text, index) => sibling[index] === text)
			? sibling
			: sibling.length === 1
				? [...parentPath, sibling[0]!]
				: null;
	if (!full)
		return fail(
			"invalid-instruction",
			`The destination's ${"before" in place ? "before" : "after"} heading "${sibling.join(delimiter)}" ` +
				`is not a child of the destination parent "${parentPath.join(delimiter)}"; name it ` +
				`by its full path or by its text. Nothing was changed.`,
		);
	const found = findSection(doc, full, delimiter);
	if (!found.ok)
		return found.reason === "target-not-found"
			? fail(
					"target-not-found",
					`The destination has no heading "${full.join(delimiter)}" to move beside; nothing was changed.`,
				)
			: found;
	return "before" in place ? found.section.start : found.section.end;
}
