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
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

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
		const heading = ATX_HEADING.exec(text);
		if (heading) headings.push({ level: heading[1]!.length, text: (heading[2] ?? "").trim(), line: index });
	}
	return { lines, frontmatter, headings, code, eol: dominantEol(lines) };
}
