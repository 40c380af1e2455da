/** The line structure of a markdown note (frontmatter, fenced code, ATX headings) with exact offsets, for tags and PATCH. */

export interface Line {
	/** Offset of the line's first character. */
	start: number;
	/** Offset just before its line break (or the end of the note). */
	end: number;
	/** Offset just after its line break; equals `end` on a last line without one. */
	next: number;
	text: string;
}

export interface Frontmatter {
	/** Offsets of the YAML text between the fences (its last line break included). */
	yamlStart: number;
	yamlEnd: number;
	yaml: string;
	/** Offset just after the closing fence's line. */
	end: number;
	/** Index of the first line after the closing fence. */
	bodyLine: number;
}

export interface Heading {
	level: number;
	/** The heading text, trimmed, without the #s or a closing sequence. */
	text: string;
	/** Index into `lines`. */
	line: number;
}

export interface MarkdownStructure {
	lines: Line[];
	frontmatter: Frontmatter | null;
	headings: Heading[];
	/** Indexes of lines inside fenced code blocks (fences included): no headings or tags there. */
	code: ReadonlySet<number>;
	/** The line break the note mostly uses, for text we add. */
	eol: "\n" | "\r\n";
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FRONTMATTER_CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

export function splitLines(content: string): Line[] {
	const lines: Line[] = [];
	let start = 0;
	while (start < content.length) {
		const newline = content.indexOf("\n", start);
		const stop = newline === -1 ? content.length : newline;
		const end = stop > start && content[stop - 1] === "\r" ? stop - 1 : stop;
		const next = newline === -1 ? content.length : newline + 1;
		lines.push({ start, end, next, text: content.slice(start, end) });
		start = next;
	}
	return lines;
}

export function isBlank(line: Line): boolean {
	return /^[ \t]*$/.test(line.text);
}

export function parseMarkdown(content: string): MarkdownStructure {
	const lines = splitLines(content);
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
	const crlf = lines.filter((line) => line.next - line.end === 2).length;
	const lf = lines.filter((line) => line.next - line.end === 1).length;
	return { lines, frontmatter, headings, code, eol: crlf > lf ? "\r\n" : "\n" };
}

/** YAML frontmatter: a `---` first line (after an optional BOM) up to the next `---` or `...` line. */
export function findFrontmatter(content: string, lines: Line[] = splitLines(content)): Frontmatter | null {
	const first = lines[0];
	if (!first || first.text.replace(/^\ufeff/, "").trimEnd() !== "---" || first.next === first.end) return null;
	for (let index = 1; index < lines.length; index++) {
		const line = lines[index]!;
		if (!FRONTMATTER_CLOSE.test(line.text)) continue;
		return { yamlStart: first.next, yamlEnd: line.start, yaml: content.slice(first.next, line.start), end: line.next, bodyLine: index + 1 };
	}
	return null;
}
