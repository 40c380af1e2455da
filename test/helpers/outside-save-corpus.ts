/**
 * The lost-update verdict (core/outside-save.ts) replayed over the real merge corpus, as issue 25 asks: the folder holds
 * the base, one program saves mine, then another saves theirs (made from the base: a stale save), or the committed
 * result (what the people merged by hand). Shared by the corpus test and the benchmark's report row.
 */
import { mergedText, mergeThreeWay } from "../../src/core/merge";
import { judgeOutsideSaveSteps, type OutsideSaveVerdict } from "../../src/core/outside-save";
import { finishNow } from "../../src/core/steps";
import type { CorpusCase } from "./merge-corpus";

export interface OutsideSaveReplay {
	c: CorpusCase;
	/** Theirs already holds all of mine's changes (the merge of base, mine and theirs is clean and is theirs). */
	theirsHasMine: boolean;
	/** Saving theirs over mine. */
	stale: OutsideSaveVerdict;
	/** Saving the committed result over mine. */
	committed: OutsideSaveVerdict;
}

export interface OutsideSaveCounts {
	cases: number;
	theirsHasMine: number;
	/** Of those, flagged (should be none: nothing of mine is lost). */
	theirsHasMineFlagged: number;
	/** Cases where theirs lacks some of mine's changes, and how many of them saving theirs flags. */
	stale: number;
	staleFlagged: number;
	committedFlagged: number;
}

export function replayOutsideSaves(cases: readonly CorpusCase[]): OutsideSaveReplay[] {
	return cases.map((c) => {
		const merge = mergeThreeWay(c.base, c.mine, c.theirs);
		return {
			c,
			theirsHasMine: merge.clean && mergedText(merge) === c.theirs,
			stale: judge(c.base, c.mine, c.theirs),
			committed: judge(c.base, c.mine, c.result),
		};
	});
}

export function countOutsideSaves(replays: readonly OutsideSaveReplay[]): OutsideSaveCounts {
	const contained = replays.filter((r) => r.theirsHasMine);
	const stale = replays.filter((r) => !r.theirsHasMine);
	return {
		cases: replays.length,
		theirsHasMine: contained.length,
		theirsHasMineFlagged: contained.filter((r) => r.stale.kind === "lost").length,
		stale: stale.length,
		staleFlagged: stale.filter((r) => r.stale.kind === "lost").length,
		committedFlagged: replays.filter((r) => r.committed.kind === "lost").length,
	};
}

export function describeCounts(counts: OutsideSaveCounts): string {
	return (
		`outside saves over ${counts.cases} real merges: saving base, mine, then theirs flags ${counts.staleFlagged} of the ${counts.stale} ` +
		`where theirs lacks some of mine (and ${counts.theirsHasMineFlagged} of the ${counts.theirsHasMine} where theirs holds all of mine); ` +
		`saving the committed result instead flags ${counts.committedFlagged} of ${counts.cases}`
	);
}

function judge(parent: string, previous: string, written: string): OutsideSaveVerdict {
	return finishNow(judgeOutsideSaveSteps({ parent, previous, written, writtenIsEarlier: false }));
}
