/**
 * The shared corpus of 294 real merges of markdown (../shared/merge-corpus): where `git merge-file` is clean, the
 * engine must be clean with git's text, except where a deliberate markdown rule conflicts instead (today only the
 * fence rule; see RULES.md). This is the line diff's regression test on real notes.
 */
import { execFileSync } from "child_process";
import { mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { afterAll, describe, expect, it } from "vitest";
import { mergedText, mergeThreeWay } from "../../../src/core/merge";
import { loadCorpus, type CorpusCase } from "../../helpers/merge-corpus";

const dir = mkdtempSync(join(tmpdir(), "revision-guard-corpus-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gitMerge(c: CorpusCase): { clean: boolean; text: string } {
	const [mine, base, theirs] = [join(dir, "mine"), join(dir, "base"), join(dir, "theirs")];
	writeFileSync(mine, c.mine);
	writeFileSync(base, c.base);
	writeFileSync(theirs, c.theirs);
	const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
	try {
		return { clean: true, text: execFileSync("git", ["merge-file", "-p", mine, base, theirs], { encoding: "utf8", env }) };
	} catch (error) {
		const failed = error as { status?: number; stdout?: string };
		if (typeof failed.status !== "number" || failed.status <= 0 || failed.status >= 127) throw error;
		return { clean: false, text: failed.stdout ?? "" };
	}
}

describe("the real merge corpus", () => {
	const cases = loadCorpus();

	it("holds all 294 cases", () => {
		expect(cases).toHaveLength(294);
	});

	it("is clean with git's exact text wherever git is clean, unless the fence rule conflicts", () => {
		let sameAsGit = 0;
		let fenceConflicts = 0;
		for (const c of cases) {
			const git = gitMerge(c);
			if (!git.clean) continue;
			const ours = mergeThreeWay(c.base, c.mine, c.theirs);
			if (!ours.clean) {
				const reasons = ours.regions.flatMap((region) => (region.kind === "conflict" ? [region.reason] : []));
				expect(reasons, c.id).toEqual(reasons.map(() => "fence"));
				fenceConflicts++;
				continue;
			}
			expect(mergedText(ours), c.id).toBe(git.text);
			sameAsGit++;
		}
		console.log(`real merge corpus: ${sameAsGit} clean merges identical to git's, ${fenceConflicts} conflicts from the fence rule`);
		expect(sameAsGit).toBe(183);
		expect(fenceConflicts).toBe(4);
	});
});
