/**
 * A note's tags the way the Local REST API reports them: frontmatter `tags` first, then inline `#tags` from the body
 * (outside code), without the '#', each once.
 */
import { readFrontmatter } from "./markdown/frontmatter";
import { parseMarkdown } from "./markdown/structure";

// Obsidian ends a tag at whitespace and at ASCII punctuation other than `_`, `-` and `/`.
const INLINE_TAG = /(?<=^|\s)#([^\s!"#$%&'()*+,.:;<=>?@[\\\]^`{|}~]+)/gu;

export function noteTags(content: string): string[] {
	const tags = [...frontmatterTags(content), ...inlineTags(content)];
	return [...new Set(tags)];
}

function frontmatterTags(content: string): string[] {
	const value = readFrontmatter(content).data?.tags;
	const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,\s]+/) : [];
	return items
		.filter((item): item is string | number => typeof item === "string" || typeof item === "number")
		.map((item) => String(item).trim().replace(/^#+/, ""))
		.filter((tag) => tag !== "");
}

function inlineTags(content: string): string[] {
	const { lines, frontmatter, code } = parseMarkdown(content);
	const found: string[] = [];
	for (let index = frontmatter?.bodyLine ?? 0; index < lines.length; index++) {
		if (code.has(index)) continue;
		const text = blankInlineCode(lines[index]!.text);
		for (const match of text.matchAll(INLINE_TAG)) {
			const tag = match[1]!;
			// A number alone (`#1`, `#2024`) is not a tag in Obsidian.
			if (!/^[0-9]+$/.test(tag)) found.push(tag);
		}
	}
	return found;
}

/** Blanks out inline code spans: a run of backticks up to the next run of exactly the same length (CommonMark). */
function blankInlineCode(text: string): string {
	let result = "";
	let at = 0;
	while (at < text.length) {
		const open = text.indexOf("`", at);
		if (open === -1) break;
		let length = 1;
		while (text[open + length] === "`") length++;
		const close = findRun(text, open + length, length);
		if (close === -1) {
			// An unmatched run is literal text; what follows it may still hold tags.
			result += text.slice(at, open + length);
			at = open + length;
			continue;
		}
		result += text.slice(at, open) + " ".repeat(close + length - open);
		at = close + length;
	}
	return result + text.slice(at);
}

function findRun(text: string, from: number, length: number): number {
	for (let at = text.indexOf("`", from); at !== -1; ) {
		let run = 1;
		while (text[at + run] === "`") run++;
		if (run === length) return at;
		at = text.indexOf("`", at + run);
	}
	return -1;
}
