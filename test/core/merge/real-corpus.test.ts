/**
 * The shared corpus of 294 real merges of markdown (../shared/merge-corpus): where `git merge-file` is clean, the
 * engine must be clean with git's text, except where the fence rule deliberately conflicts (RULES.md); where a
 * markdown rule turns git's conflict clean, the merge is marked with the rule and is never one that hand review
 * found worse than git's conflict (`rule-wrong`). The counts are printed on every run.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mergedText, mergeThreeWay, rulesFired, type MergeResult } from "../../../src/core/merge";
import { gitMerger, type GitMerge } from "../../helpers/git-merge";
import { corpusSkipNote, loadCorpus, type CorpusCase } from "../../helpers/merge-corpus";

const git = gitMerger();
afterAll(() => git.close());

// Skipped, saying why, where the corpus is missing outside CI (a fresh clone has no ../shared) or missing on purpose
// (REVISION_GUARD_CORPUS=absent, the release workflow); under CI otherwise a missing corpus fails (corpusSkipNote).
const skipWhy = corpusSkipNote();

/** The one case where both sides changed the code of one block and git merged the lines: the fence rule's conflict. */
const FENCE_CONFLICTS = ["rust-lang+rfcs/0072"];

interface Replay {
	c: CorpusCase;
	git: GitMerge;
	ours: MergeResult;
}

describe("the real merge corpus", () => {
	// Loaded before the tests, not while they are collected: a skipped suite must not read a corpus that is not there.
	let cases: CorpusCase[] = [];
	let replays: Replay[] = [];
	beforeAll(() => {
		if (skipWhy !== null) return;
		cases = loadCorpus();
		replays = cases.map((c) => ({ c, git: git.merge(c), ours: mergeThreeWay(c.base, c.mine, c.theirs) }));
	});
	beforeEach((context) => {
		if (skipWhy !== null) context.skip(skipWhy);
	});

	it("holds all 294 cases", () => {
		expect(cases).toHaveLength(294);
	});

	it("is clean with git's exact text wherever git is clean, unless the fence rule conflicts", () => {
		let sameAsGit = 0;
		const fenceConflicts: string[] = [];
		for (const { c, git: reference, ours } of replays) {
			if (reference.conflicts > 0) continue;
			if (!ours.clean) {
				const reasons = ours.regions.flatMap((region) => (region.kind === "conflict" ? [region.reason] : []));
				expect(reasons, c.id).toEqual(reasons.map(() => "fence"));
				fenceConflicts.push(c.id);
				continue;
			}
			expect(mergedText(ours), c.id).toBe(reference.output);
			// The rules only ever speak where git conflicts.
			expect(rulesFired(ours), c.id).toEqual([]);
			sameAsGit++;
		}
		expect(sameAsGit).toBe(186);
		expect(fenceConflicts).toEqual(FENCE_CONFLICTS);
	});

	it("never makes a merge hand review found worse than git's conflict, and marks every rule-made merge", () => {
		const ruleMade = replays.filter(({ git: reference, ours }) => reference.conflicts > 0 && ours.clean);
		const byRule = new Map<string, number>();
		for (const { c, ours } of ruleMade) {
			const rules = rulesFired(ours);
			expect(rules.length, c.id).toBeGreaterThan(0);
			for (const rule of rules) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
		}
		const asPeople = ruleMade.filter(({ c, ours }) => mergedText(ours) === c.result).length;
		const ruleWrong = ruleMade
			.filter(({ c, ours }) => verdict(c) === "rule-wrong" && mergedText(ours) !== c.result)
			.map(({ c }) => c.id);
		const reviewedWrong = replays.filter(({ c }) => verdict(c) === "rule-wrong");

		const sameAsGit = replays.filter(
			({ git: reference, ours }) => reference.conflicts === 0 && ours.clean && mergedText(ours) === reference.output,
		).length;
		const fenceConflicts = replays.filter(
			({ git: reference, ours }) => reference.conflicts === 0 && !ours.clean,
		).length;
		const bothConflict = replays.filter(({ git: reference, ours }) => reference.conflicts > 0 && !ours.clean).length;
		const rules = [...byRule].map(([rule, count]) => `${rule} ${count}`).join(", ");
		console.log(
			`real merge corpus (${replays.length} cases): ${sameAsGit} same text as git, ${fenceConflicts} fence-rule conflict(s) where git is clean, ` +
				`${bothConflict} conflicts like git, ${ruleMade.length} rule-made merges (${rules}; ${asPeople} exactly what people committed), ` +
				`${ruleWrong.length} rule-wrong`,
		);

		expect(ruleWrong).toEqual([]);
		// The four cases review marked rule-wrong are now conflicts, as in git.
		expect(reviewedWrong.map(({ c }) => c.id)).toHaveLength(4);
		for (const { c, ours } of reviewedWrong) expect(ours.clean, c.id).toBe(false);
		expect(ruleMade).toHaveLength(25);
		expect(asPeople).toBe(12);
	});
});

function verdict(c: CorpusCase): string | undefined {
	return c.review?.verdict;
}
