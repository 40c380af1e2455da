/**
 * One note's answer to a simple search, shaped as the Local REST API shapes it: the search runs over the note's name
 * (without extension), a blank line, then its content; a match inside the name is reported against the name, a
 * match inside the content with `contextLength` characters of content on each side. Whichever search ran (Obsidian's
 * own or the headless one), this is the one place its matches become an answer.
 */
import type { TextSearch } from "./word-search";

export interface SimpleMatch {
	match: { start: number; end: number; source: "filename" | "content" };
	context: string;
}

export interface SimpleHit {
	filename: string;
	score: number;
	matches: SimpleMatch[];
	/** How many matches were found in all, when more than are listed. */
	matchCount?: number;
}

/** Matches listed per note: enough to show where a word occurs, bounded so one huge note cannot fill an answer. */
export const MAX_MATCHES_PER_NOTE = 100;
/** The widest context asked for is served at this width (Local REST API: unbounded; default 100). */
export const MAX_CONTEXT_LENGTH = 10_000;
export const DEFAULT_CONTEXT_LENGTH = 100;

/** `contextLength` as a query string gives it: a number, else the default; negative counts as 0, huge as the cap. */
export function contextLengthOf(raw: string | null | undefined): number {
	return clampContextLength(raw === null || raw === undefined ? NaN : parseInt(raw, 10));
}

/** `contextLength` as JSON gives it (an MCP argument): whole characters, negative as 0, huge as the cap, NaN as the default. */
export function clampContextLength(value: number): number {
	if (Number.isNaN(value)) return DEFAULT_CONTEXT_LENGTH;
	return Math.min(Math.max(Math.trunc(value), 0), MAX_CONTEXT_LENGTH);
}

/** The note's name as the search sees it: the file name without its extension. */
export function basenameOf(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return dot > 0 ? name.slice(0, dot) : name;
}

export function simpleHit(path: string, content: string, search: TextSearch, contextLength: number): SimpleHit | null {
	const name = basenameOf(path);
	const prefix = name + "\n\n";
	const result = search(prefix + content);
	if (!result) return null;
	const matches: SimpleMatch[] = [];
	let found = 0;
	for (const [start, end] of result.matches) {
		let match: SimpleMatch;
		if (start < prefix.length && end <= prefix.length)
			match = { match: { start, end: Math.min(end, name.length), source: "filename" }, context: name };
		else if (start >= prefix.length) {
			const from = start - prefix.length;
			const to = end - prefix.length;
			match = {
				match: { start: from, end: to, source: "content" },
				context: content.slice(Math.max(from - contextLength, 0), to + contextLength),
			};
		} else continue; // A word spanning the name and the content (it would hold the blank line) is neither.
		found++;
		if (matches.length < MAX_MATCHES_PER_NOTE) matches.push(match);
	}
	return { filename: path, score: result.score, matches, ...(found > matches.length ? { matchCount: found } : {}) };
}
