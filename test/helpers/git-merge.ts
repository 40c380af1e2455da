/** `git merge-file -p` on three texts, the reference our merge engine is compared with. */
import { execFileSync } from "child_process";
import { mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";

export interface GitMerge {
	/** git's exit code: the number of conflicts (0 = clean). */
	conflicts: number;
	output: string;
}

/** A scratch folder for git's three input files; `close` removes it. */
export function gitMerger(): {
	merge(sides: { base: string; mine: string; theirs: string }, extra?: string[]): GitMerge;
	close(): void;
} {
	const dir = mkdtempSync(join(tmpdir(), "revision-guard-git-merge-"));
	return {
		merge(sides, extra = []) {
			const [mine, base, theirs] = [join(dir, "mine"), join(dir, "base"), join(dir, "theirs")];
			writeFileSync(mine, sides.mine);
			writeFileSync(base, sides.base);
			writeFileSync(theirs, sides.theirs);
			// No user or system config: merge.conflictStyle there would change git's output.
			const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
			try {
				return {
					conflicts: 0,
					output: execFileSync("git", ["merge-file", "-p", ...extra, mine, base, theirs], { encoding: "utf8", env }),
				};
			} catch (error) {
				const failed = error as { status?: number; stdout?: string };
				if (typeof failed.status !== "number" || failed.status <= 0 || failed.status >= 127) throw error;
				return { conflicts: failed.status, output: failed.stdout ?? "" };
			}
		},
		close: () => rmSync(dir, { recursive: true, force: true }),
	};
}
