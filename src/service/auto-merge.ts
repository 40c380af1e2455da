/** `Prefer: merge=auto`: when an agent's token is stale, try the three-way merge against what it read. */
import { mergedText, mergeThreeWay, renderMerge } from "../core/merge";

export type AutoMerge =
	| { kind: "merged"; text: string }
	/** Not clean: the preview shows the conflicts with git-style markers, for the 412. */
	| { kind: "conflicted"; preview: string; conflicts: number };

export function autoMerge(base: string, current: string, proposal: string): AutoMerge {
	const result = mergeThreeWay(base, current, proposal);
	if (result.clean) return { kind: "merged", text: mergedText(result) };
	return { kind: "conflicted", preview: renderMerge(result, { diff3: true }), conflicts: result.conflicts };
}
