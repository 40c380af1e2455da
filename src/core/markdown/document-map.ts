/**
 * The document map of the Local REST API (markdown-patch formats 1 and 2): what a PATCH can target in a note. Format 2
 * nests headings as a tree (a path through it is a heading target); format 1 lists `A::B` paths.
 */
import { findBlocks } from "./blocks";
import { readFrontmatter } from "./frontmatter";
import { headingPaths } from "./sections";
import { parseMarkdown, type MarkdownStructure } from "./structure";

/** Each heading's text maps to its child headings. Duplicate siblings share one key (a PATCH on them is ambiguous). */
export interface HeadingTree {
	[text: string]: HeadingTree;
}

export interface DocumentMap {
	headings: HeadingTree;
	blocks: string[];
	frontmatterFields: string[];
}

export interface FlatDocumentMap {
	headings: string[];
	blocks: string[];
	frontmatterFields: string[];
}

export function documentMap(content: string): DocumentMap {
	const doc = parseMarkdown(content);
	// Null-prototype objects: a heading named "__proto__" is an ordinary key, never the object's prototype.
	const headings = Object.create(null) as HeadingTree;
	for (const path of headingPaths(doc)) {
		if (path.some((text) => text === "")) continue;
		let level = headings;
		for (const text of path) level = Object.prototype.hasOwnProperty.call(level, text) ? level[text]! : (level[text] = Object.create(null) as HeadingTree);
	}
	return { headings, blocks: blockIds(doc), frontmatterFields: frontmatterFields(content) };
}

/** Format 1: every heading path joined with `::`, each once, in note order. */
export function flatDocumentMap(content: string): FlatDocumentMap {
	const doc = parseMarkdown(content);
	const paths = headingPaths(doc).filter((path) => path.every((text) => text !== "")).map((path) => path.join("::"));
	return { headings: [...new Set(paths)], blocks: blockIds(doc), frontmatterFields: frontmatterFields(content) };
}

function blockIds(doc: MarkdownStructure): string[] {
	return [...new Set(findBlocks(doc).map((block) => block.id))];
}

/** Top-level keys; none when the frontmatter cannot be read safely. */
function frontmatterFields(content: string): string[] {
	const { data } = readFrontmatter(content);
	return data === null ? [] : Object.keys(data);
}
