/** Heading sections: a heading's body runs to the next heading of the same or a higher level (its subtree). */
import { isBlankLine } from "./lines";
import { OccurrenceCounter } from "./occurrences";
import type { MarkdownStructure } from "./structure";

export interface Section {
	/** Index of the heading line in `doc.lines`. */
	line: number;
	/** Offset just after the heading line. */
	contentStart: number;
	/** Offset just after the section's last non-blank line (its blank lines before the next heading are not content). */
	contentEnd: number;
	level: number;
	/** Offset of the heading line's first character. */
	start: number;
	/** Offset where the section's subtree ends, its trailing blank lines included: the next heading of the same or a higher level, or the note's end. */
	end: number;
}

/**
 * Sections whose chain of enclosing headings (outermost first) is exactly `path`. Each step is a heading's key: its
 * text, with an occurrence suffix for a repeat of an earlier sibling (occurrences.ts), so plain text names the first.
 */
export function headingSections(doc: MarkdownStructure, path: readonly string[]): Section[] {
	const found: Section[] = [];
	const keys = headingKeyPaths(doc);
	const ends = sectionEndLines(doc);
	doc.headings.forEach((heading, index) => {
		const chain = keys[index]!;
		if (chain.length !== path.length || chain.some((key, depth) => key !== path[depth])) return;
		const endLine = ends[index]!;
		let last = endLine - 1;
		while (last > heading.line && isBlankLine(doc.lines[last]!.text) && !doc.code.has(last)) last--;
		const contentStart = doc.lines[heading.line]!.next;
		const start = doc.lines[heading.line]!.start;
		const end = endLine < doc.lines.length ? doc.lines[endLine]!.start : doc.lines[doc.lines.length - 1]!.next;
		found.push({
			line: heading.line,
			contentStart,
			contentEnd: last > heading.line ? doc.lines[last]!.next : contentStart,
			level: heading.level,
			start,
			end,
		});
	});
	return found;
}

/**
 * For each heading, the line its section ends before: the next heading of the same or a higher level, or the end.
 * One pass from the end, so a note of many same-named headings stays linear (searching forward from each was not).
 */
function sectionEndLines(doc: MarkdownStructure): number[] {
	const ends: number[] = new Array<number>(doc.headings.length);
	// nextAtOrAbove[level]: the line of the nearest later heading whose level is at most `level`.
	const nextAtOrAbove: number[] = new Array<number>(7).fill(doc.lines.length);
	for (let index = doc.headings.length - 1; index >= 0; index--) {
		const { level, line } = doc.headings[index]!;
		ends[index] = nextAtOrAbove[level]!;
		for (let deeper = level; deeper <= 6; deeper++) nextAtOrAbove[deeper] = line;
	}
	return ends;
}

/** Every heading's path (outermost first), in note order, as plain text (a repeat of an earlier sibling alike). */
export function headingPaths(doc: MarkdownStructure): string[][] {
	const chain: { level: number; text: string }[] = [];
	return doc.headings.map((heading) => {
		while (chain.length > 0 && chain[chain.length - 1]!.level >= heading.level) chain.pop();
		chain.push(heading);
		return chain.map((entry) => entry.text);
	});
}

/** Every heading's path of keys (outermost first), in note order: a repeat of an earlier sibling gets its own key. */
export function headingKeyPaths(doc: MarkdownStructure): string[][] {
	const root = new OccurrenceCounter();
	const chain: { level: number; key: string; children: OccurrenceCounter }[] = [];
	return doc.headings.map((heading) => {
		while (chain.length > 0 && chain[chain.length - 1]!.level >= heading.level) chain.pop();
		const siblings = chain.length > 0 ? chain[chain.length - 1]!.children : root;
		chain.push({ level: heading.level, key: siblings.next(heading.text), children: new OccurrenceCounter() });
		return chain.map((entry) => entry.key);
	});
}
