/** `Prefer: merge=auto`: when an agent's token is stale, try the three-way merge against what it read. */
import { mergedText, mergeThreeWayInSlices, renderMerge } from "../core/merge";
import type { YieldToHost } from "../core/steps";

export type AutoMerge =
	| { kind: "merged"; text: string }
	/** Not clean: the preview shows the conflicts with git-style markers, for the 412. */
	| { kind: "conflicted"; preview: string; conflicts: number }
	/** The merge itself failed: the write is refused as if no merge had been asked for. */
	| { kind: "failed" };

/** Merged in slices: a big note's merge never stalls the host's other work. */
export async function autoMergeInSlices(base: string, current: string, proposal: string, yieldToHost: YieldToHost): Promise<AutoMerge> {
	const result = await mergeThreeWayInSlices(base, current, proposal, yieldToHost);
	if (result.clean) return { kind: "merged", text: mergedText(result) };
	return { kind: "conflicted", preview: renderMerge(result, { diff3: true }), conflicts: result.conflicts };
}
