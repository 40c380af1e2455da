/** Turns a merge into the view's blocks: conflicts numbered, long unchanged stretches split around a collapsible middle. */
import { mergeThreeWay, type MergeConflictReason, type StableOrigin } from "../../core/merge";
import { eolOf } from "../../core/markdown/lines";
import { lineCount } from "../../core/markdown/lines";
import { offsetAfterLines, offsetBeforeLastLines, type Choice } from "./block-text";

/** "no-base": what the agent read is no longer kept, so this difference cannot be attributed to either side. */
export type BlockReason = MergeConflictReason | "no-base";

/** The markdown rule that made a region clean where git would conflict (core/merge's `rule` mark). */
export type RuleMark = "frontmatter" | "tags" | "list";

/** What an automatic change was undone to: the base text, or (rule merges of two blocks) one side's block. */
export type StableUndo = "base" | "mine" | "theirs";

export interface StableBlock {
	kind: "stable";
	origin: StableOrigin;
	/** The base text this block replaced (equal to `auto` for unchanged text). */
	base: string;
	/** The text the merge chose. */
	auto: string;
	/** What the person typed, once it differs from `auto`; nothing automatic ever clears it. */
	edited: string | null;
	/** The hidden middle of a long unchanged stretch. */
	collapsible: boolean;
	expanded: boolean;
	/** A byte order mark merged on its own: not a line, nothing to show or edit. */
	hidden: boolean;
	/** The rule that merged it, when not git's line rule. */
	rule: RuleMark | null;
	/** The two blocks a frontmatter or tags rule combined; null otherwise. */
	ruleMine: string | null;
	ruleTheirs: string | null;
	/** The person undid this automatic change (one click); null keeps the merge's text. */
	undo: StableUndo | null;
}

export interface ConflictBlock {
	kind: "conflict";
	/** 0-based, in document order. */
	id: number;
	reason: BlockReason;
	base: string;
	mine: string;
	theirs: string;
	choice: Choice | null;
	/** What the person typed; it settles the conflict until a button replaces it. */
	edited: string | null;
}

export type Block = StableBlock | ConflictBlock;

export interface BuiltMerge {
	blocks: Block[];
	/** Line ending for text that has none of its own (new lines typed into an empty block, markers). */
	documentEol: string;
}

/** Unchanged stretches longer than this collapse… */
export const COLLAPSE_OVER_LINES = 8;
/** …keeping this many lines next to each change. */
export const CONTEXT_LINES = 3;

const BOM = "\ufeff";

interface RuleFields {
	rule?: RuleMark | null;
	ruleMine?: string | null;
	ruleTheirs?: string | null;
}

type Region =
	| ({ kind: "stable"; origin: StableOrigin; text: string; base: string } & RuleFields)
	| { kind: "conflict"; reason: BlockReason; base: string; mine: string; theirs: string };

export function buildMerge(base: string | null, mine: string, theirs: string): BuiltMerge {
	const regions = base === null ? twoWayRegions(mine, theirs) : threeWayRegions(base, mine, theirs);
	const blocks: Block[] = [];
	let conflicts = 0;
	const visible = regions.map((region) => !isBomOnly(region));
	const firstVisible = visible.indexOf(true);
	const lastVisible = visible.lastIndexOf(true);
	regions.forEach((region, index) => {
		if (region.kind === "conflict") {
			blocks.push({ ...region, id: conflicts++, choice: null, edited: null });
		} else if (region.origin === "base" && lineCount(region.text) > COLLAPSE_OVER_LINES) {
			blocks.push(...splitUnchanged(region.text, index > firstVisible, index < lastVisible));
		} else {
			blocks.push({
				...stable(region.origin, region.base, region.text, { hidden: !visible[index] }),
				...ruleOf(region),
			});
		}
	});
	return { blocks, documentEol: documentEol(regions) };
}

function threeWayRegions(base: string, mine: string, theirs: string): Region[] {
	return mergeThreeWay(base, mine, theirs).regions.map((region) =>
		region.kind === "conflict"
			? region
			: {
					kind: "stable",
					origin: region.origin,
					text: region.text,
					base: region.base ?? region.text,
					...ruleFields(region),
				},
	);
}

/** The engine's optional rule mark (see core/merge/types.ts), read defensively: absent means git's own rule. */
function ruleFields(region: object): RuleFields {
	const marked = region as { rule?: unknown; mine?: unknown; theirs?: unknown };
	const rule = marked.rule === "frontmatter" || marked.rule === "tags" || marked.rule === "list" ? marked.rule : null;
	if (rule === null) return {};
	const both = typeof marked.mine === "string" && typeof marked.theirs === "string";
	return { rule, ruleMine: both ? (marked.mine as string) : null, ruleTheirs: both ? (marked.theirs as string) : null };
}

function ruleOf(region: RuleFields): Pick<StableBlock, "rule" | "ruleMine" | "ruleTheirs"> {
	return { rule: region.rule ?? null, ruleMine: region.ruleMine ?? null, ruleTheirs: region.ruleTheirs ?? null };
}

/**
 * Without a base nobody can tell who changed what, so every difference between the note and the proposal is a
 * conflict, and the lines both share are unchanged text. Merging with the note as its own base yields exactly
 * those differences as one-sided changes; the result is checked and falls back to one whole-note conflict.
 */
function twoWayRegions(mine: string, theirs: string): Region[] {
	// The BOM stays as the note has it: it is not a difference worth a conflict.
	const bom = mine.startsWith(BOM) ? BOM : "";
	const [m, t] = [stripBom(mine), stripBom(theirs)];
	const regions: Region[] = bom === "" ? [] : [{ kind: "stable", origin: "base", text: bom, base: bom }];
	let checkMine = "";
	let checkTheirs = "";
	for (const region of mergeThreeWay(m, m, t).regions) {
		if (region.kind === "conflict") return [...regions, ...wholeNote(m, t)];
		const mineText = region.origin === "base" ? region.text : (region.base ?? "");
		checkMine += mineText;
		checkTheirs += region.text;
		const last = regions[regions.length - 1];
		if (region.origin === "base")
			regions.push({ kind: "stable", origin: "base", text: region.text, base: region.text });
		else if (last?.kind === "conflict") {
			last.mine += mineText;
			last.theirs += region.text;
		} else regions.push({ kind: "conflict", reason: "no-base", base: "", mine: mineText, theirs: region.text });
	}
	if (checkMine !== m || checkTheirs !== t) return [...regions.slice(0, bom === "" ? 0 : 1), ...wholeNote(m, t)];
	return regions;
}

function wholeNote(mine: string, theirs: string): Region[] {
	if (mine === theirs) return [{ kind: "stable", origin: "base", text: mine, base: mine }];
	return [{ kind: "conflict", reason: "no-base", base: "", mine, theirs }];
}

function stripBom(text: string): string {
	return text.startsWith(BOM) ? text.slice(1) : text;
}

function isBomOnly(region: Region): boolean {
	const bomOrNothing = (text: string) => text === "" || text === BOM;
	return region.kind === "stable" && bomOrNothing(region.text) && bomOrNothing(region.base);
}

/** Context lines stay next to a change on each side that has one; the middle collapses. */
function splitUnchanged(text: string, changeAbove: boolean, changeBelow: boolean): StableBlock[] {
	const headEnd = changeAbove ? offsetAfterLines(text, CONTEXT_LINES) : 0;
	const tailStart = changeBelow ? offsetBeforeLastLines(text, CONTEXT_LINES) : text.length;
	const parts: StableBlock[] = [];
	if (headEnd > 0) parts.push(stable("base", text.slice(0, headEnd), text.slice(0, headEnd)));
	const middle = text.slice(headEnd, tailStart);
	parts.push(stable("base", middle, middle, { collapsible: true }));
	if (tailStart < text.length) parts.push(stable("base", text.slice(tailStart), text.slice(tailStart)));
	return parts;
}

function stable(
	origin: StableOrigin,
	base: string,
	auto: string,
	flags: { collapsible?: boolean; hidden?: boolean } = {},
): StableBlock {
	return {
		kind: "stable",
		origin,
		base,
		auto,
		edited: null,
		collapsible: flags.collapsible ?? false,
		expanded: false,
		hidden: flags.hidden ?? false,
		rule: null,
		ruleMine: null,
		ruleTheirs: null,
		undo: null,
	};
}

/** renderMerge's fallback: the first line ending of the merged text (conflicts counted as mine). */
function documentEol(regions: readonly Region[]): string {
	for (const region of regions) {
		const eol = eolOf(region.kind === "stable" ? region.text : region.mine);
		if (eol !== undefined) return eol;
	}
	return "\n";
}
