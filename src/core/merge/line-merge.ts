/** Line-based three-way merge of base/mine/theirs line arrays into stable and conflicting regions. */
import { diffInternedSteps, internLinesSteps } from "../diff/line-diff";
import { joinLinesSteps } from "../markdown/lines";
import { finishNow, type Steps } from "../steps";
import { groupHunks, type Group } from "./group";
import { toHunks, type Hunk } from "./hunks";
import { analyzeBaseSteps, plainStructure } from "./markdown";
import type { DraftRegion } from "./types";

export interface LineMergeOptions {
	/** Apply the list and fence rules (off for frontmatter, which has its own rules). */
	markdown?: boolean;
}

export function mergeLines(
	base: readonly string[],
	mine: readonly string[],
	theirs: readonly string[],
	options: LineMergeOptions = {},
): DraftRegion[] {
	return finishNow(mergeLinesSteps(base, mine, theirs, options));
}

export function* mergeLinesSteps(
	base: readonly string[],
	mine: readonly string[],
	theirs: readonly string[],
	options: LineMergeOptions = {},
): Steps<DraftRegion[]> {
	// Interned once for both diffs: each line is hashed a single time.
	const interned = yield* internLinesSteps([base, mine, theirs]);
	const mineOps = yield* diffInternedSteps(interned, 0, 1);
	const mineHunks = toHunks(mineOps, base, mine, "mine");
	yield;
	const theirsOps = yield* diffInternedSteps(interned, 0, 2);
	const theirsHunks = toHunks(theirsOps, base, theirs, "theirs");
	yield;
	const structure = options.markdown === false ? plainStructure(base.length) : yield* analyzeBaseSteps(base);
	yield;
	const groups = groupHunks(mineHunks, theirsHunks, { base, mine, theirs }, structure);
	yield;

	const regions: DraftRegion[] = [];
	let baseAt = 0;
	const mineMap = new SideMap();
	const theirsMap = new SideMap();
	for (const group of groups) {
		const start = group.baseStart;
		const end = Math.min(group.baseEnd, base.length);
		pushStable(regions, yield* joinLinesSteps(base, baseAt, start), "base");
		const mineText = yield* joinLinesSteps(mine, mineMap.at(start), mineMap.after(group.mine, end));
		const theirsText = yield* joinLinesSteps(theirs, theirsMap.at(start), theirsMap.after(group.theirs, end));
		regions.push(resolve(group, yield* joinLinesSteps(base, start, end), mineText, theirsText));
		baseAt = end;
		yield;
	}
	pushStable(regions, yield* joinLinesSteps(base, baseAt, base.length), "base");
	return regions;
}

/** Maps base line numbers to a side's line numbers through the hunks seen so far (they arrive in base order). */
class SideMap {
	private delta = 0;

	at(baseLine: number): number {
		return baseLine + this.delta;
	}

	after(hunks: readonly Hunk[], baseEnd: number): number {
		const last = hunks[hunks.length - 1];
		if (last) this.delta = last.sideEnd - last.baseEnd;
		return baseEnd + this.delta;
	}
}

function resolve(group: Group, base: string, mine: string, theirs: string): DraftRegion {
	if (group.theirs.length > 0 && group.mine.length > 0 && mine !== theirs)
		return { kind: "conflict", reason: group.fence ? "fence" : "overlap", base, mine, theirs };
	// Both sides arriving at the same text is agreement, not conflict (git's zealous merge says the same).
	const region: DraftRegion =
		group.theirs.length === 0
			? { kind: "stable", text: mine, origin: "mine", base }
			: group.mine.length === 0
				? { kind: "stable", text: theirs, origin: "theirs", base }
				: { kind: "stable", text: mine, origin: "both", base };
	// The list rule's mark goes on every clean region it kept apart, so a view can say so and offer to undo it.
	if (group.listRule) region.rule = "list";
	return region;
}

function pushStable(regions: DraftRegion[], text: string, origin: "base"): void {
	if (text !== "") regions.push({ kind: "stable", text, origin });
}
