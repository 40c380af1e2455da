/**
 * Start-up of the `merge` command against a bare `node -e 0`: wall time of whole processes, median of alternating
 * runs, so the same machine noise falls on both.
 */
import { execFileSync } from "child_process";
import { mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";

const RUNS = 21;

export interface StartupFigures {
	mergeMs: number;
	nodeMs: number;
}

/** `command` is the merge command's argv after `node` (the three files are added). */
export function measureMergeStartup(command: string[]): StartupFigures {
	const folder = mkdtempSync(join(tmpdir(), "rg-merge-startup-"));
	try {
		const files = ["mine", "base", "theirs"].map((name, i) => {
			const file = join(folder, `${name}.md`);
			writeFileSync(file, `# Note\n\nline one\nline ${i === 0 ? "mine" : i === 2 ? "theirs" : "two"}\nline three\n`);
			return file;
		});
		const time = (args: string[]) => {
			const t0 = performance.now();
			try {
				execFileSync(process.execPath, args, { stdio: "ignore" });
			} catch {
				// A conflicted merge exits with the number of conflicts, like git merge-file: still a finished run.
			}
			return performance.now() - t0;
		};
		const merge: number[] = [];
		const node: number[] = [];
		time(["-e", "0"]);
		time([...command, ...files]);
		for (let run = 0; run < RUNS; run++) {
			node.push(time(["-e", "0"]));
			merge.push(time([...command, ...files]));
		}
		const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
		return { mergeMs: median(merge), nodeMs: median(node) };
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
