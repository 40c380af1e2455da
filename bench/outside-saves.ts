/**
 * The lost-update verdict on outside saves over the real merge corpus (issue 25): how many stale saves it flags and how
 * many committed merges it flags. Deterministic counts, the same on every machine; test/core/outside-save-corpus.test.ts
 * pins them and lists every case behind them.
 */
import { existsSync } from "fs";
import { join } from "path";
import { loadCorpus } from "../test/helpers/merge-corpus";
import {
	countOutsideSaves,
	describeCounts,
	replayOutsideSaves,
	type OutsideSaveCounts,
} from "../test/helpers/outside-save-corpus";

/** The shared folder beside the clone, seen from dist/ where the benchmark runs. */
const CORPUS = join(__dirname, "..", "..", "shared", "merge-corpus", "real-merges.json");

/** The counts, or null (saying so) where the corpus is not beside the clone. */
export function measureOutsideSaves(): OutsideSaveCounts | null {
	if (!existsSync(CORPUS)) {
		console.log(`outside saves: no merge corpus at ${CORPUS}, rows left out`);
		return null;
	}
	const counts = countOutsideSaves(replayOutsideSaves(loadCorpus(CORPUS)));
	console.log(describeCounts(counts));
	return counts;
}
