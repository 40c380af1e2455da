/**
 * Tags the way Obsidian reads them and the Local REST API reports them: frontmatter `tags` (or `tag`) first, then
 * inline `#tags` from the body (outside code), without the '#'. `tagOccurrences` keeps every use (what a count needs,
 * as Obsidian's getAllTags does); `noteTags` each tag once (a note's tag list).
 */
import { readFrontmatter } from "./markdown/frontmatter";
import { blankInlineCode } from "./markdown/inline-code";
import { parseMarkdown } from "./markdown/structure";

// Obsidian ends a tag at whitespace and at ASCII punctuation other than `_`, `-` and `/`.
const INLINE_TAG = /(?<=^|\s)#([^\s!"#$%&'()*+,.:;<=>?@[\\\]^`{|}~]+)/gu;
/** The frontmatter keys Obsidian takes tags from (parseFrontMatterTags). */
const TAG_KEY = /^tags?$/i;
/**
 * At most this many uses are taken from one note: a generated note with a million `#x` cannot make a tag count (or
 * the memory that holds it) unbounded. No note a person writes comes near it.
 */
export const MAX_TAG_USES_PER_NOTE = 10_000;

export interface TagCount {
	/** Without the '#'. */
	name: string;
	/** How many times the tag is used (a note that uses it twice counts twice), nested tags included (see countTags). */
	count: number;
}

/**
 * Every use of a tag in the note, frontmatter first, in order. `frontmatter`: the note's, when the caller has read it
 * already (it is read here otherwise).
 */
export function tagOccurrences(
	content: string,
	frontmatter: Record<string, unknown> | null = readFrontmatter(content).data,
): string[] {
	const found = tagsOfFrontmatter(frontmatter);
	const { lines, frontmatter: block, code } = parseMarkdown(content);
	for (let index = block?.bodyLine ?? 0; index < lines.length && found.length < MAX_TAG_USES_PER_NOTE; index++) {
		if (code.has(index)) continue;
		for (const match of blankInlineCode(lines[index]!.text).matchAll(INLINE_TAG)) {
			const tag = match[1]!;
			// A number alone (`#1`, `#2024`) is not a tag in Obsidian.
			if (!/^[0-9]+$/.test(tag)) found.push(tag);
		}
	}
	return found.slice(0, MAX_TAG_USES_PER_NOTE);
}

/** The note's tags, each once, in the order of their first use. */
export function noteTags(content: string, frontmatter?: Record<string, unknown> | null): string[] {
	return [...new Set(tagOccurrences(content, frontmatter))];
}

/**
 * Counts uses across notes as the Local REST API's GET /tags/ does: each use of `a/b/c` counts once for `a/b/c`, once
 * for `a/b` and once for `a` (Obsidian's tag pane nests them so). Case is kept: `#Tag` and `#tag` count apart. Sorted
 * by name (code-unit order), so a page of the list means the same thing on every call.
 */
export function countTags(uses: Iterable<readonly string[]>): TagCount[] {
	const counts = new Map<string, number>();
	const add = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
	for (const list of uses) {
		for (const tag of list) {
			const parts = tag.split("/");
			for (let depth = 1; depth < parts.length; depth++) {
				const parent = parts.slice(0, depth).join("/");
				if (parent !== "") add(parent);
			}
			if (tag !== "") add(tag);
		}
	}
	return [...counts]
		.map(([name, count]) => ({ name, count }))
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The tags frontmatter names (under `tags` or `tag`: a list, or one string of them), without '#'. */
export function tagsOfFrontmatter(frontmatter: Record<string, unknown> | null): string[] {
	const found: string[] = [];
	for (const [key, value] of Object.entries(frontmatter ?? {})) {
		if (!TAG_KEY.test(key)) continue;
		const items: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,\s]+/) : [];
		for (const item of items) {
			if (typeof item !== "string" && typeof item !== "number") continue;
			const tag = String(item).trim().replace(/^#+/, "");
			if (tag !== "") found.push(tag);
		}
	}
	return found;
}

export interface TagPage {
	tags: TagCount[];
	/** Pass as `after` for the next page; absent on the last page. */
	next?: string;
}

/**
 * The tags after `after` (a name, exclusive) in the order countTags gives: at most `limit`, and no more than fit in
 * `maxChars` of JSON (one tag always does, so a page always moves on).
 */
export function tagPage(
	all: readonly TagCount[],
	options: { after?: string; limit: number; maxChars: number },
): TagPage {
	const { after, limit, maxChars } = options;
	const start = after === undefined ? 0 : all.findIndex((tag) => tag.name > after);
	if (start === -1) return { tags: [] };
	const tags: TagCount[] = [];
	let chars = 0;
	for (let index = start; index < all.length && tags.length < limit; index++) {
		const tag = all[index]!;
		chars += JSON.stringify(tag).length + 1;
		if (tags.length > 0 && chars > maxChars) break;
		tags.push(tag);
	}
	const last = tags[tags.length - 1];
	return start + tags.length < all.length && last ? { tags, next: last.name } : { tags };
}
