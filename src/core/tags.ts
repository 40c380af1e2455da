/**
 * A note's tags the way the Local REST API reports them: frontmatter `tags` first, then inline `#tags` from the body
 * (outside code), without the '#', each once.
 */
import { readFrontmatter } from "./markdown/frontmatter";
import { blankInlineCode } from "./markdown/inline-code";
import { parseMarkdown } from "./markdown/structure";

// Obsidian ends a tag at whitespace and at ASCII punctuation other than `_`, `-` and `/`.
const INLINE_TAG = /(?<=^|\s)#([^\s!"#$%&'()*+,.:;<=>?@[\\\]^`{|}~]+)/gu;

/** `frontmatter`: the note's frontmatter when the caller has read it already (it is read here otherwise). */
export function noteTags(content: string, frontmatter: Record<string, unknown> | null = readFrontmatter(content).data): string[] {
	const tags = [...tagsOfFrontmatter(frontmatter), ...inlineTags(content)];
	return [...new Set(tags)];
}

/** The tags a note's frontmatter names (a list, or one string of them), without '#'. */
export function tagsOfFrontmatter(frontmatter: Record<string, unknown> | null): string[] {
	const value = frontmatter?.tags;
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
