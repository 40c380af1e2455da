/**
 * Heading levels in text a patch inserts or moves: format 2 reads them relative to where the text lands, so a client
 * never counts #s. Markdown has no level past 6: a heading pushed deeper is written at 6 and reported as a
 * `heading-depth-overflow` warning (LRA's Markdown-Patch-Warnings), never dropped or turned into text.
 */
import { parseMarkdown } from "./markdown/structure";
import type { PatchWarning } from "./patch";

const MAX_NAMED = 5;

/** Shifts every heading in `text` (outside code) by `shift` levels, kept within 1..6; overflows are added to `warnings`. */
export function shiftHeadings(text: string, shift: number, warnings: PatchWarning[]): string {
	const doc = parseMarkdown(text);
	if (doc.headings.length === 0 || shift === 0) return text;
	let result = "";
	let from = 0;
	let overflows = 0;
	for (const heading of doc.headings) {
		const line = doc.lines[heading.line]!;
		const hashes = /#+/.exec(line.text)!;
		const at = line.start + hashes.index;
		const wanted = heading.level + shift;
		// Named one by one up to a few: the warnings travel in a response header, which must stay small.
		if (wanted > 6 && ++overflows <= MAX_NAMED) {
			warnings.push({
				code: "heading-depth-overflow",
				message:
					`The heading "${heading.text.slice(0, 100)}" would be level ${wanted}; markdown stops ` +
					`at 6, so it was written at level 6.`,
			});
		}
		result += text.slice(from, at) + "#".repeat(Math.max(1, Math.min(6, wanted)));
		from = at + hashes[0].length;
	}
	if (overflows > MAX_NAMED)
		warnings.push({
			code: "heading-depth-overflow",
			message: `${overflows - MAX_NAMED} more headings would be deeper than level 6; they were written at level 6.`,
		});
	return result + text.slice(from);
}

/** Shifts the headings in `text` so that `#` sits right below a heading of `level`; never past `######`. */
export function rebaseHeadings(text: string, level: number): string {
	return shiftHeadings(text, level, []);
}

/** Format 2 owns the whitespace at the edges of inserted text: blank lines there are dropped. */
export function trimBlankEdges(text: string): string {
	return text.replace(/^(?:[ \t]*\r?\n)+/, "").replace(/(?:\r?\n[ \t]*)+$/, "");
}
