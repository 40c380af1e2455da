/** The structure of a markdown note (frontmatter, fenced code, ATX headings) with exact offsets, for tags and PATCH. */
import { findFrontmatter, type FrontmatterBlock } from "./frontmatter";
import { dominantEol, scanLines, type Line } from "./lines";

export interface Heading {
	level: number;
	/** The heading text, trimmed, without the #s or a closing sequence. */
	text: string;
	/** Index into `lines`. */
	line: number;
}

export interface MarkdownStructure {
	lines: Line[];
	frontmatter: FrontmatterBlock | null;
	headings: Heading[];
	/** Indexes of lines inside fenced code blocks (fences included): no headings or tags there. */
	code: ReadonlySet<number>;
	/** The line break the note mostly uses, for text we add. */
	eol: "\n" | "\r\n";
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** An ATX heading as a pattern: the reference atxHeading reads lines by (a property test compares them). */
export const ATX_HEADING_PATTERN = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

export function parseMarkdown(content: string): MarkdownStructure {
	const lines = scanLines(content);
	const frontmatter = findFrontmatter(content, lines);
	const headings: Heading[] = [];
	const code = new Set<number>();
	let fence: { char: string; length: number } | null = null;
	for (let index = frontmatter?.bodyLine ?? 0; index < lines.length; index++) {
		const text = lines[index]!.text;
		if (fence) {
			code.add(index);
			const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(text);
			if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = null;
			continue;
		}
		const open = FENCE_OPEN.exec(text);
		// A backtick fence's info string may not hold a backtick (CommonMark), else it is inline code.
		if (open && !(open[1]![0] === "`" && open[2]!.includes("`"))) {
			fence = { char: open[1]![0]!, length: open[1]!.length };
			code.add(index);
			continue;
		}
		const heading = atxHeading(text);
		if (heading) headings.push({ ...heading, line: index });
	}
	return { lines, frontmatter, headings, code, eol: dominantEol(lines) };
}

/**
 * An ATX heading line's level and text, exactly as ATX_HEADING_PATTERN reads it, in one pass: the pattern's lazy text
 * before an optional closing sequence backtracks quadratically over a long run of spaces (a 200 KB heading line took
 * about a minute, on every PATCH and document map of the note).
 */
export function atxHeading(line: string): { level: number; text: string } | null {
	let at = 0;
	while (at < 3 && line[at] === " ") at++;
	let level = 0;
	while (level < 7 && line[at + level] === "#") level++;
	if (level === 0 || level > 6) return null;
	const rest = line.slice(at + level);
	// The pattern's `.` and `$` stop at any line terminator, so such a line is no heading.
	if ((rest !== "" && rest[0] !== " " && rest[0] !== "\t") || /[\n\r\u2028\u2029]/.test(rest)) return null;
	// Trimmed by hand: /[ \t]+$/ is quadratic over a long run of spaces too.
	let start = 0;
	let stop = rest.length;
	while (start < stop && (rest[start] === " " || rest[start] === "\t")) start++;
	while (stop > start && (rest[stop - 1] === " " || rest[stop - 1] === "\t")) stop--;
	const body = rest.slice(start, stop);
	// A closing run of #s counts only after a space or tab inside the text (a text that is all #s stays as it is).
	let end = body.length;
	while (end > 0 && body[end - 1] === "#") end--;
	const closed = end < body.length && end > 0 && (body[end - 1] === " " || body[end - 1] === "\t");
	return { level, text: (closed ? body.slice(0, end) : body).trim() };
}
