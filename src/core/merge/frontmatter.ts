/** The frontmatter rule: a leading `---` YAML block is merged key by key instead of line by line. */
import { closesFrontmatter, opensFrontmatter } from "../markdown/frontmatter";
import { splitLines } from "../markdown/lines";
import { mergeLines } from "./line-merge";
import type { DraftRegion } from "./types";
import { sameYaml } from "./yaml-chunks";
import { mergeYaml } from "./yaml-merge";

/** Splits off the frontmatter block (both fence lines included); null when the text has none. */
export function splitFrontmatter(lines: readonly string[]): { block: string[]; body: string[] } | null {
	// The opening fence needs its line break, as everywhere (markdown/frontmatter.ts).
	const first = lines[0] ?? "";
	if (!first.endsWith("\n") || !opensFrontmatter(first)) return null;
	for (let i = 1; i < lines.length; i++) {
		if (closesFrontmatter(lines[i] ?? "")) return { block: lines.slice(0, i + 1), body: lines.slice(i + 1) };
	}
	return null;
}

/**
 * Merges three frontmatter blocks. YAML decides whether the merge is clean; when the plain line merge reaches the
 * same YAML, its regions are returned instead because they keep every byte and say which side each change came from.
 * Where git's line merge conflicts, the key-by-key merge is used only if no change of one side sits next to a change
 * of the other (RULES.md: neighbouring keys are edited together, and people kept one side there).
 */
export function mergeFrontmatter(
	base: readonly string[],
	mine: readonly string[],
	theirs: readonly string[],
): DraftRegion[] {
	const [b, m, t] = [base.join(""), mine.join(""), theirs.join("")];
	if (m === t)
		return [
			m === b ? { kind: "stable", text: m, origin: "base" } : { kind: "stable", text: m, origin: "both", base: b },
		];
	if (m === b) return [{ kind: "stable", text: t, origin: "theirs", base: b }];
	if (t === b) return [{ kind: "stable", text: m, origin: "mine", base: b }];

	const lineRegions = mergeLines(base, mine, theirs, { markdown: false });
	const yaml = mergeYaml(inner(base), inner(mine), inner(theirs));
	if (yaml.kind === "unparseable") return lineRegions;
	const lineText = cleanText(lineRegions);
	if (yaml.kind === "conflict") {
		if (lineText === null)
			return lineRegions.map((region) => (region.kind === "conflict" ? { ...region, reason: "frontmatter" } : region));
		// git would merge the lines, but both sides changed one key: the whole block goes to the user.
		return [{ kind: "conflict", reason: "frontmatter", base: b, mine: m, theirs: t }];
	}
	const merged = (mine[0] ?? "") + yaml.text + (mine[mine.length - 1] ?? "");
	if (lineText !== null && lineText === merged) return lineRegions;
	if (lineText !== null && sameYaml(inner(splitLines(lineText)), yaml.text)) return lineRegions;
	// Neighbouring keys changed on each side: git's conflict, which is what people resolved by hand.
	if (lineText === null && yaml.neighbours) return lineRegions;
	return [
		{
			kind: "stable",
			text: merged,
			origin: "both",
			base: b,
			rule: yaml.listsCombined ? "tags" : "frontmatter",
			mine: m,
			theirs: t,
		},
	];
}

/** The YAML between the two fence lines. */
function inner(block: readonly string[]): string {
	return block.slice(1, -1).join("");
}

function cleanText(regions: readonly DraftRegion[]): string | null {
	let text = "";
	for (const region of regions) {
		if (region.kind !== "stable") return null;
		text += region.text;
	}
	return text;
}
