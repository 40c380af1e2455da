/**
 * The document map of the Local REST API (markdown-patch formats 1 and 2): what a PATCH can target in a note. Format 2
 * nests headings as a tree (a path through it is a heading target); format 1 lists `A::B` paths.
 */
import { blockKeys, findBlocks } from "./blocks";
import { readFrontmatter } from "./frontmatter";
import { headingKeyPaths, headingPaths } from "./sections";
import { parseMarkdown, type MarkdownStructure } from "./structure";

/** Each heading's key maps to its child headings: a repeat of an earlier sibling has its own key (occurrences.ts). */
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
	/** Set when the list stopped at its size bound (see flatDocumentMap). */
	headingsTruncated?: true;
}

/** The flat list's bound, in characters, for notes smaller than this (bigger notes get their own size). */
export const FLAT_HEADINGS_MIN_BUDGET = 1024 * 1024;

export function documentMap(content: string): DocumentMap {
	const doc = parseMarkdown(content);
	// Null-prototype objects: a heading named "__proto__" is an ordinary key, never the object's prototype.
	const headings = Object.create(null) as HeadingTree;
	for (const path of headingKeyPaths(doc)) {
		if (path.some((text) => text === "")) continue;
		let level = headings;
		for (const text of path)
			level = Object.prototype.hasOwnProperty.call(level, text)
				? level[text]!
				: (level[text] = Object.create(null) as HeadingTree);
	}
	// Every block, a repeated id at each occurrence with its own key, as Local REST API 5.1 lists them.
	return { headings, blocks: blockKeys(findBlocks(doc)), frontmatterFields: frontmatterFields(content) };
}

/**
 * Format 1: every heading path joined with `::`, each once, in note order. Each path repeats its enclosing headings,
 * so a few long headings above many short ones would make the list far bigger than the note (a 500 KB note: over
 * a gigabyte). The list stops at the note's own size (or FLAT_HEADINGS_MIN_BUDGET), and says so.
 */
export function flatDocumentMap(content: string): FlatDocumentMap {
	const doc = parseMarkdown(content);
	const budget = Math.max(content.length, FLAT_HEADINGS_MIN_BUDGET);
	// A path is new when its last step is: found in a tree of the paths so far, so a repeat is never joined again.
	type Step = Map<string, Step>;
	const root: Step = new Map();
	const headings: string[] = [];
	const listed = new Set<string>();
	let used = 0;
	let truncated = false;
	for (const path of headingPaths(doc)) {
		if (path.some((text) => text === "")) continue;
		let step = root;
		let added = false;
		for (const text of path) {
			let next = step.get(text);
			if (!next) {
				step.set(text, (next = new Map<string, Step>()));
				added = true;
			}
			step = next;
		}
		if (!added) continue;
		// Measured before it is joined, so an oversized path is never built.
		const length = path.reduce((sum, text) => sum + text.length, 2 * (path.length - 1));
		if (used + length > budget) {
			truncated = true;
			break;
		}
		const joined = path.join("::");
		// A heading whose own text holds "::" can spell another path: listed once, as before.
		if (listed.has(joined)) continue;
		listed.add(joined);
		headings.push(joined);
		used += length;
	}
	return {
		headings,
		blocks: blockIds(doc),
		frontmatterFields: frontmatterFields(content),
		...(truncated ? { headingsTruncated: true as const } : {}),
	};
}

/** Format 1: each id once. */
function blockIds(doc: MarkdownStructure): string[] {
	return [...new Set(findBlocks(doc).map((block) => block.id))];
}

/** Top-level keys; none when the frontmatter cannot be read safely. */
function frontmatterFields(content: string): string[] {
	const { data } = readFrontmatter(content);
	return data === null ? [] : Object.keys(data);
}

/** One heading of an outline: the target that names it (keys joined by `::`, outermost first) and its level. */
export interface OutlineHeading {
	target: string;
	level: number;
}

export interface NoteOutline {
	headings: OutlineHeading[];
	blocks: string[];
	frontmatterFields: string[];
	/** Set when the headings or blocks stopped at their bound (see noteOutline). */
	truncated?: true;
}

/**
 * What a patch can target, as flat lists in note order: each heading's target (a repeat of a sibling with its own key),
 * each block's key, each frontmatter key. Each list stops at `maxItems` entries and `maxChars` characters of targets,
 * so a note of many long nested headings cannot make the answer larger than it should be.
 */
export function noteOutline(content: string, maxItems: number, maxChars: number): NoteOutline {
	const doc = parseMarkdown(content);
	const headings: OutlineHeading[] = [];
	let used = 0;
	let truncated = false;
	const keyPaths = headingKeyPaths(doc);
	for (let index = 0; index < keyPaths.length; index++) {
		const path = keyPaths[index]!;
		if (path.some((text) => text === "")) continue;
		const length = path.reduce((sum, key) => sum + key.length + 2, 0);
		if (headings.length >= maxItems || used + length > maxChars) {
			truncated = true;
			break;
		}
		headings.push({ target: path.join("::"), level: doc.headings[index]!.level });
		used += length;
	}
	const allBlocks = blockKeys(findBlocks(doc));
	const blocks = allBlocks.slice(0, maxItems);
	if (blocks.length < allBlocks.length) truncated = true;
	return {
		headings,
		blocks,
		frontmatterFields: frontmatterFields(content),
		...(truncated ? { truncated: true as const } : {}),
	};
}
