/** `Prefer: merge=auto`: when an agent's token is stale, try the three-way merge against what it read. */
import { mergedText, mergeThreeWayInSlices, renderMerge, rulesFired } from "../../core/merge";
import type { BaseStore } from "../stores/base-store";
import { sentRevisions } from "../../core/revision";
import { baseFor, type WriteRequest } from "./write-request";
import type { YieldToHost } from "../../core/steps";
import type { AutoMerge } from "../../core/write-plan";

export type { AutoMerge } from "../../core/write-plan";

/**
 * Merged in slices: a big note's merge never stalls the host's other work. A merge that fails is no merge: the write
 * is then refused as stale (and its body kept), never lost to an error.
 */
export async function autoMergeInSlices(
	base: string,
	current: string,
	proposal: string,
	yieldToHost: YieldToHost,
	onError?: (error: unknown) => void,
): Promise<AutoMerge> {
	try {
		const result = await mergeThreeWayInSlices(base, current, proposal, yieldToHost);
		if (result.clean) return { kind: "merged", text: mergedText(result), rules: rulesFired(result) };
		return {
			kind: "conflicted",
			preview: renderMerge(result, { diff3: true }),
			conflicts: result.conflicts,
			rules: rulesFired(result),
		};
	} catch (error) {
		onError?.(error);
		return { kind: "failed" };
	}
}

/** What the agent read, the merge's base; null (no merge, only the plain refusal that keeps the body) when it is not kept. */
export async function mergeBaseOf(
	bases: BaseStore,
	request: Pick<WriteRequest, "ifMatch" | "mayUseBase">,
): Promise<string | null> {
	const sent = sentRevisions(request.ifMatch)[0];
	return sent === undefined ? null : baseFor(bases, request, sent).catch(() => null);
}
