/** The merge entry point: BOM and frontmatter handling around the line merge, then region tidying and numbering. */
import { splitLinesSteps } from "../markdown/lines";
import { mergeFrontmatter, splitFrontmatter } from "./frontmatter";
import { finishInSlices, finishNow, type Steps, type YieldToHost } from "../steps";
import { mergeLinesSteps } from "./line-merge";
import type { DraftRegion, MergeRegion, MergeResult, MergeRule } from "./types";

const BOM = "\ufeff";

/** Three-way merge of a note: `mine` is the note now, `theirs` the agent's proposal, both made from `base`. */
export function mergeThreeWay(base: string, mine: string, theirs: string): MergeResult {
	return finishNow(mergeThreeWaySteps(base, mine, theirs));
}

/** The same merge, in slices that give the host a turn between them (for notes of any size on a shared thread). */
export function mergeThreeWayInSlices(
	base: string,
	mine: string,
	theirs: string,
	yieldToHost: YieldToHost,
): Promise<MergeResult> {
	return finishInSlices(mergeThreeWaySteps(base, mine, theirs), yieldToHost);
}

export function* mergeThreeWaySteps(base: string, mine: string, theirs: string): Steps<MergeResult> {
	const [b, m, t] = [withoutBom(base), withoutBom(mine), withoutBom(theirs)];
	// The BOM is an encoding marker, not a line of text: merged on its own so adding or dropping it never
	// collides with an edit of the first line.
	const drafts: DraftRegion[] = [pickSide(b.bom, m.bom, t.bom)];
	const bl = yield* splitLinesSteps(b.text);
	const ml = yield* splitLinesSteps(m.text);
	const tl = yield* splitLinesSteps(t.text);
	yield;
	const [bf, mf, tf] = [splitFrontmatter(bl), splitFrontmatter(ml), splitFrontmatter(tl)];
	if (bf && mf && tf) {
		append(drafts, mergeFrontmatter(bf.block, mf.block, tf.block));
		yield;
		append(drafts, yield* mergeLinesSteps(bf.body, mf.body, tf.body));
	} else {
		append(drafts, yield* mergeLinesSteps(bl, ml, tl));
	}
	yield;
	return finish(drafts);
}

/** push(...items) passes every item as an argument, which overflows the stack for a huge list. */
function append<T>(target: T[], items: readonly T[]): void {
	for (const item of items) target.push(item);
}

function withoutBom(text: string): { bom: string; text: string } {
	return text.startsWith(BOM) ? { bom: BOM, text: text.slice(1) } : { bom: "", text };
}

/** Three-way choice for something that cannot conflict (the BOM is there or not): whichever side changed it wins. */
function pickSide(base: string, mine: string, theirs: string): DraftRegion {
	if (mine === base && theirs === base) return { kind: "stable", text: base, origin: "base" };
	if (mine === theirs) return { kind: "stable", text: mine, origin: "both", base };
	return mine === base
		? { kind: "stable", text: theirs, origin: "theirs", base }
		: { kind: "stable", text: mine, origin: "mine", base };
}

/** The markdown rules that made this merge's clean regions (RULES.md), each once, in document order. */
export function rulesFired(result: MergeResult): MergeRule[] {
	const rules: MergeRule[] = [];
	for (const region of result.regions)
		if (region.kind === "stable" && region.rule && !rules.includes(region.rule)) rules.push(region.rule);
	return rules;
}

/** Drops empty unchanged text, joins neighbours of the same origin, numbers the conflicts. */
function finish(drafts: readonly DraftRegion[]): MergeResult {
	const regions: MergeRegion[] = [];
	let conflicts = 0;
	for (const draft of drafts) {
		if (draft.kind === "conflict") {
			regions.push({ ...draft, id: conflicts++ });
			continue;
		}
		if (draft.origin === "base" && draft.text === "") continue;
		const last = regions[regions.length - 1];
		// A rule-made region stays whole and alone: it is what a view offers to undo.
		if (
			last &&
			last.kind === "stable" &&
			last.origin === draft.origin &&
			last.rule === undefined &&
			draft.rule === undefined
		) {
			last.text += draft.text;
			if (last.base !== undefined || draft.base !== undefined) last.base = (last.base ?? "") + (draft.base ?? "");
		} else {
			regions.push({ ...draft });
		}
	}
	return { clean: conflicts === 0, conflicts, regions };
}
