/** Reads a note's YAML frontmatter as plain data (for JSON reads); never throws on bad YAML. */
import { parse } from "yaml";

const FRONTMATTER = /^\ufeff?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

export function readFrontmatter(content: string): Record<string, unknown> {
	const match = FRONTMATTER.exec(content);
	if (!match) return {};
	try {
		const data: unknown = parse(match[1]!, { maxAliasCount: 100 });
		return typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}
