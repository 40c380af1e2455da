/**
 * A note's YAML frontmatter, found by one rule for the whole core (reads, tags, PATCH and the merge): a first line
 * of `---` (after an optional byte-order mark, trailing spaces allowed) up to the next `---` or `...` line.
 */
import { parse } from "yaml";
import { yamlRefusal } from "../nesting";
import { scanLines, type Line } from "./lines";

/** Where the frontmatter block is. */
export interface FrontmatterBlock {
	/** Offsets of the YAML text between the fences (its last line break included). */
	yamlStart: number;
	yamlEnd: number;
	yaml: string;
	/** Offset just after the closing fence's line. */
	end: number;
	/** Index of the first line after the closing fence. */
	bodyLine: number;
}

const OPENING_FENCE = /^\ufeff?---[ \t]*(?:\r?\n)?$/;
const CLOSING_FENCE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n)?$/;

/** Whether a first line (with or without its terminator) opens frontmatter. */
export function opensFrontmatter(line: string): boolean {
	return OPENING_FENCE.test(line);
}

/** Whether a line (with or without its terminator) closes frontmatter. */
export function closesFrontmatter(line: string): boolean {
	return CLOSING_FENCE.test(line);
}

export function findFrontmatter(content: string, lines: readonly Line[] = scanLines(content)): FrontmatterBlock | null {
	const first = lines[0];
	// The opening fence needs its line break: a note that is only "---" has no frontmatter.
	if (!first || !opensFrontmatter(first.text) || first.next === first.end) return null;
	for (let index = 1; index < lines.length; index++) {
		const line = lines[index]!;
		if (!closesFrontmatter(line.text)) continue;
		return {
			yamlStart: first.next,
			yamlEnd: line.start,
			yaml: content.slice(first.next, line.start),
			end: line.next,
			bodyLine: index + 1,
		};
	}
	return null;
}

/** The frontmatter's keys and values, for JSON reads and tags; never throws, never parses unsafe text. */
export interface FrontmatterData {
	/** The keys and values; {} when the note has no frontmatter, null when it has one that cannot be read. */
	data: Record<string, unknown> | null;
	/** Why `data` is null. */
	warning?: string;
}

export function readFrontmatter(content: string): FrontmatterData {
	const block = findFrontmatter(content);
	if (!block) return { data: {} };
	const { yaml } = block;
	const unsafe = yamlRefusal(yaml);
	if (unsafe !== null) return { data: null, warning: `The frontmatter was not read because ${unsafe}.` };
	try {
		const data: unknown = parse(yaml, { maxAliasCount: 100, prettyErrors: false });
		if (data === null || data === undefined) return { data: {} };
		if (typeof data === "object" && !Array.isArray(data)) return { data: data as Record<string, unknown> };
		return { data: null, warning: "The frontmatter is not a set of keys (it is a list or a single value)." };
	} catch (error) {
		return {
			data: null,
			warning: `The frontmatter is not valid YAML (${error instanceof Error ? error.message.split("\n")[0] : "parse error"}).`,
		};
	}
}
