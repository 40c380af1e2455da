/** Reads a note's YAML frontmatter as plain data (for JSON reads and tags); never throws, never parses unsafe text. */
import { parse } from "yaml";
import { yamlRefusal } from "./nesting";

const FRONTMATTER = /^\ufeff?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

export interface Frontmatter {
	/** The keys and values; {} when the note has no frontmatter, null when it has one that cannot be read. */
	data: Record<string, unknown> | null;
	/** Why `data` is null. */
	warning?: string;
}

export function readFrontmatter(content: string): Frontmatter {
	const match = FRONTMATTER.exec(content);
	if (!match) return { data: {} };
	const yaml = match[1]!;
	const unsafe = yamlRefusal(yaml);
	if (unsafe !== null) return { data: null, warning: `The frontmatter was not read because ${unsafe}.` };
	try {
		const data: unknown = parse(yaml, { maxAliasCount: 100, prettyErrors: false });
		if (data === null || data === undefined) return { data: {} };
		if (typeof data === "object" && !Array.isArray(data)) return { data: data as Record<string, unknown> };
		return { data: null, warning: "The frontmatter is not a set of keys (it is a list or a single value)." };
	} catch (error) {
		return { data: null, warning: `The frontmatter is not valid YAML (${error instanceof Error ? error.message.split("\n")[0] : "parse error"}).` };
	}
}
