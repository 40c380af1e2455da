/**
 * The links a note makes, as the link paths Obsidian's metadata cache would record: wikilinks and embeds
 * (`[[Note#Heading|alias]]`, `![[image.png]]`), markdown links to vault files (`[text](Folder/Note%20A.md)`), and
 * wikilinks in frontmatter values. Each is the path part alone (no `#heading`, `^block` or alias), as written.
 * Links inside fenced or inline code are not links. External URLs (`https:`, `mailto:`…) and same-note anchors
 * (`[[#Heading]]`, `[x](#h)`) are not links to another file and are left out.
 *
 * An approximation of Obsidian's parser, used to read links out of the exact text an answer shows: reference-style
 * links (`[x][ref]`), links inside `%%comments%%` and HTML are read as Obsidian's editor would not, or not at all.
 */
import { readFrontmatter } from "./frontmatter";
import { blankInlineCode } from "./inline-code";
import { parseMarkdown } from "./structure";

const WIKILINK = /!?\[\[([^[\]\n]+?)\]\]/g;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** As with tags: no note a person writes has more, and a generated one cannot make the answer unbounded. */
export const MAX_LINKS_PER_NOTE = 10_000;
/**
 * A destination or title longer than this is not read as one: no real link is that long, and the bound keeps a line
 * of thousands of unclosed `[x](` from being scanned again from each of them.
 */
const MAX_DESTINATION = 2048;
/** How deep frontmatter values are searched for wikilinks. */
const MAX_VALUE_DEPTH = 8;

/** Every link's path, in order (a note that links twice to one place lists it twice). */
export function noteLinkpaths(content: string): string[] {
	return linkpathsOf(content, false);
}

/**
 * The paths of the note's embeds alone (`![[Note]]`, `![text](Note.md)`), in order: what a renderer puts inside the
 * rendered note (frontmatter links are never embeds).
 */
export function noteEmbedpaths(content: string): string[] {
	return linkpathsOf(content, true);
}

function linkpathsOf(content: string, embedsOnly: boolean): string[] {
	const found = embedsOnly ? [] : frontmatterLinkpaths(content);
	const { lines, frontmatter, code } = parseMarkdown(content);
	for (let index = frontmatter?.bodyLine ?? 0; index < lines.length && found.length < MAX_LINKS_PER_NOTE; index++) {
		if (code.has(index)) continue;
		const text = blankInlineCode(lines[index]!.text);
		if (!text.includes("[")) continue;
		for (const match of text.matchAll(WIKILINK))
			if (!embedsOnly || match[0].startsWith("!")) pushPath(found, wikilinkPath(match[1]!));
		// A wikilink's brackets are not a markdown link's text.
		for (const link of markdownLinks(text.replace(WIKILINK, (whole) => " ".repeat(whole.length))))
			if (!embedsOnly || link.embed) pushPath(found, markdownLinkPath(link.destination));
	}
	return found.slice(0, MAX_LINKS_PER_NOTE);
}

/**
 * The destinations of `[text](destination "title")` links in one line, read by hand in one pass (a regular expression
 * for them backtracks quadratically over a run of spaces), each marked when it is an embed (`![text](...)`). A
 * destination is `<...>`, or text without spaces in which parentheses balance; the title is optional.
 */
function markdownLinks(line: string): { destination: string; embed: boolean }[] {
	const found: { destination: string; embed: boolean }[] = [];
	let open = -1;
	for (let at = 0; at < line.length; at++) {
		const char = line[at];
		if (char === "[") open = at;
		else if (char === "]" && open !== -1 && line[at + 1] === "(") {
			const link = readDestination(line, at + 2);
			const embed = line[open - 1] === "!";
			open = -1;
			if (link) {
				found.push({ destination: link.destination, embed });
				at = link.end - 1;
			}
		}
	}
	return found;
}

/** The destination starting at `from` (just after the `(`), and where the link ends; null when it is no link. */
function readDestination(line: string, from: number): { destination: string; end: number } | null {
	let at = skipSpaces(line, from);
	let destination: string;
	if (line[at] === "<") {
		const close = closing(line, at + 1, ">");
		if (close === -1 || line.slice(at + 1, close).includes("<")) return null;
		destination = line.slice(at + 1, close);
		at = close + 1;
	} else {
		const start = at;
		const limit = Math.min(line.length, at + MAX_DESTINATION);
		let depth = 0;
		for (; at < limit; at++) {
			const char = line[at]!;
			if (char === " " || char === "\t" || char === "<") break;
			// CommonMark allows 32 levels of parentheses; past that, no link (and no rescan of a long run of them).
			if (char === "(" && ++depth > 32) return null;
			else if (char === ")") {
				if (depth === 0) break;
				depth--;
			}
		}
		destination = line.slice(start, at);
	}
	at = skipSpaces(line, at);
	const quote = line[at];
	if (quote === '"' || quote === "'" || (quote === "(" && at > from)) {
		const close = closing(line, at + 1, quote === "(" ? ")" : quote);
		if (close === -1) return null;
		at = skipSpaces(line, close + 1);
	}
	return line[at] === ")" ? { destination, end: at + 1 } : null;
}

/** Where `char` next occurs from `from`, looking no further than MAX_DESTINATION characters; -1 when not there. */
function closing(line: string, from: number, char: string): number {
	const found = line.slice(from, from + MAX_DESTINATION).indexOf(char);
	return found === -1 ? -1 : from + found;
}

function skipSpaces(line: string, at: number): number {
	while (line[at] === " " || line[at] === "\t") at++;
	return at;
}

/** `Note#Heading|alias` → `Note`; in a table, the alias bar is escaped (`Note\|alias`). */
function wikilinkPath(inner: string): string {
	const bar = inner.indexOf("|");
	const target = bar === -1 ? inner : inner.slice(0, bar).replace(/\\$/, "");
	return withoutSubpath(target);
}

function markdownLinkPath(destination: string): string {
	const bare = destination.startsWith("<") ? destination.slice(1, -1) : destination;
	if (URL_SCHEME.test(bare)) return "";
	let decoded = bare;
	try {
		decoded = decodeURIComponent(bare);
	} catch {
		// Not percent-encoding after all: the destination as written.
	}
	return withoutSubpath(decoded);
}

function withoutSubpath(target: string): string {
	const hash = target.indexOf("#");
	return (hash === -1 ? target : target.slice(0, hash)).trim();
}

function pushPath(found: string[], path: string): void {
	if (path !== "") found.push(path);
}

function frontmatterLinkpaths(content: string): string[] {
	const found: string[] = [];
	const visit = (value: unknown, depth: number): void => {
		if (found.length >= MAX_LINKS_PER_NOTE || depth > MAX_VALUE_DEPTH) return;
		if (typeof value === "string") {
			if (value.includes("[[")) for (const match of value.matchAll(WIKILINK)) pushPath(found, wikilinkPath(match[1]!));
		} else if (Array.isArray(value)) {
			for (const item of value) visit(item, depth + 1);
		} else if (typeof value === "object" && value !== null) {
			for (const item of Object.values(value)) visit(item, depth + 1);
		}
	};
	visit(readFrontmatter(content).data ?? {}, 0);
	return found;
}
