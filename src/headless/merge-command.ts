/**
 * `merge MINE BASE THEIRS [--diff3]`: the merge engine on three files, like `git merge-file -p`: the result goes
 * to stdout and the exit code is the number of conflicts (capped at 127), so the two can be compared directly.
 */
import { readFile } from "fs/promises";
// From the modules themselves, not the index: the index also exports the word diff, whose diff-match-patch the
// merge never uses and would only slow the merge program's start (esbuild keeps a CommonJS package it reaches).
import { mergeThreeWay } from "../core/merge/merge";
import { renderMerge } from "../core/merge/render";
import type { MergeArgs } from "./args";

/** Exit code for unreadable input (git uses -1, which a shell sees as 255). */
export const MERGE_ERROR_EXIT = 255;
/** Exit code for wrong arguments: git's, above any conflict count, so a script can tell the two apart. */
export const MERGE_USAGE_EXIT = 129;

export async function runMerge(
	args: MergeArgs,
	out: (text: string) => void,
	err: (text: string) => void,
): Promise<number> {
	let texts: string[];
	try {
		texts = await Promise.all([args.mine, args.base, args.theirs].map(readUtf8));
	} catch (error) {
		err(`merge: ${error instanceof Error ? error.message : String(error)}\n`);
		return MERGE_ERROR_EXIT;
	}
	const [mine, base, theirs] = texts as [string, string, string];
	const result = mergeThreeWay(base, mine, theirs);
	out(renderMerge(result, { diff3: args.diff3 }));
	return Math.min(result.conflicts, 127);
}

async function readUtf8(path: string): Promise<string> {
	const bytes = await readFile(path);
	try {
		// ignoreBOM keeps a BOM as text, so it survives the merge like every other byte.
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
	} catch {
		throw new Error(`${path} is not UTF-8 text`);
	}
}
