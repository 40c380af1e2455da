/** Heading sections: a heading's body runs to the next heading of the same or a higher level (its subtree). */
import { isBlankLine } from "./lines";
import type { MarkdownStructure } from "./structure";

export interface Section {
	/** Index of the heading line in `doc.lines`. */
	line: number;
	/** Offset just after the heading line. */
	contentStart: number;
	/** Offset just after the section's last non-blank line (its blank lines before the next heading are not content). */
	contentEnd: number;
	level: number;
}

/** Sections whose chain of enclosing headings (outermost first) is exactly `path`. */
export function headingSections(doc: MarkdownStructure, path: readonly string[]): Section[] {
	const found: Section[] = [];
	const chain: { level: number; text: string }[] = [];
	doc.headings.forEach((heading, index) => {
		while (chain.length > 0 && chain[chain.length - 1]!.level >= heading.level) chain.pop();
		chain.push(heading);
		if (chain.length !== path.length || chain.some((entry, depth) => entry.text !== path[depth])) return;
		const next = doc.headings.slice(index + 1).find((later) => later.level <= heading.level);
		const endLine = next ? next.line : doc.lines.length;
		let last = endLine - 1;
		while (last > heading.line && isBlankLine(doc.lines[last]!.text) && !doc.code.has(last)) last--;
		const contentStart = doc.lines[heading.line]!.next;
		found.push({ line: heading.line, contentStart, contentEnd: last > heading.line ? doc.lines[last]!.next : contentStart, level: heading.level });
	});
	return found;
}

/** Every heading's path (outermost first), in note order. */
export function headingPaths(doc: MarkdownStructure): string[][] {
	const chain: { level: number; text: string }[] = [];
	return doc.headings.map((heading) => {
		while (chain.length > 0 && chain[chain.length - 1]!.level >= heading.level) chain.pop();
		chain.push(heading);
		return chain.map((entry) => entry.text);
	});
}
