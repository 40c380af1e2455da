/**
 * The shared corpus of 294 real merges of markdown (../shared/merge-corpus): where `git merge-file` is clean, the
 * engine must be clean with git's text, except where a deliberate markdown rule conflicts instead (today only the
 * fence rule; see RULES.md). This is the line diff's regression test on real notes.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mergedText, mergeThreeWay } from "../../../src/core/merge";
import { gitMerger } from "../../helpers/git-merge";
import { corpusAvailable, loadCorpus } from "../../helpers/merge-corpus";

const git = gitMerger();
afterAll(() => git.close());

// Skipped only where the corpus is absent AND the runner says it is absent on purpose (the GitHub release workflow,
// which has no ../shared beside its clone); anywhere else a missing corpus fails loudly.
const absentOnPurpose = process.env.REVISION_GUARD_CORPUS === "absent" && !corpusAvailable();

describe.skipIf(absentOnPurpose)("the real merge corpus", () => {
	const cases = loadCorpus();

	it("holds all 294 cases", () => {
		expect(cases).toHaveLength(294);
	});

	it("is clean with git's exact text wherever git is clean, unless the fence rule conflicts", () => {
		let sameAsGit = 0;
		let fenceConflicts = 0;
		for (const c of cases) {
			const reference = git.merge(c);
			if (reference.conflicts > 0) continue;
			const ours = mergeThreeWay(c.base, c.mine, c.theirs);
			if (!ours.clean) {
				const reasons = ours.regions.flatMap((region) => (region.kind === "conflict" ? [region.reason] : []));
				expect(reasons, c.id).toEqual(reasons.map(() => "fence"));
				fenceConflicts++;
				continue;
			}
			expect(mergedText(ours), c.id).toBe(reference.output);
			sameAsGit++;
		}
		console.log(`real merge corpus: ${sameAsGit} clean merges identical to git's, ${fenceConflicts} conflicts from the fence rule`);
		expect(sameAsGit).toBe(183);
		expect(fenceConflicts).toBe(4);
	});
});
