/**
 * How much of an agent's refused proposal ended up in the note once a conflict was resolved: all of its changes,
 * some, or none. Judged by change, not by text, so a result that keeps every agent edit on top of the person's
 * newer edits still counts as "whole".
 */
import type { AgentTaken } from "./conflicts";
import { mergedText, mergeThreeWaySteps } from "./merge";
import { finishNow, type Steps } from "./steps";

/**
 * `base` is what the agent read (null if no longer retained), `theirs` what it proposed, `mine` the note when
 * it was refused, `result` the note as resolved.
 */
export function agentTakenOf(base: string | null, mine: string, theirs: string, result: string): AgentTaken {
	return finishNow(agentTakenSteps(base, mine, theirs, result));
}

/** The same judgement as steps, so a host can run it in slices (it merges twice). */
export function* agentTakenSteps(base: string | null, mine: string, theirs: string, result: string): Steps<AgentTaken> {
	if (result === theirs) return "whole";
	if (base === null) return result === mine ? "none" : "partial";
	// Re-applying the agent's changes to the result changes nothing: they are all there already.
	if (yield* appliesAsNoOp(base, result, theirs)) return "whole";
	// Reverting the agent's changes from the result changes nothing: none of them are there.
	if (yield* appliesAsNoOp(theirs, result, base)) return "none";
	return "partial";
}

function* appliesAsNoOp(from: string, result: string, to: string): Steps<boolean> {
	const merged = yield* mergeThreeWaySteps(from, result, to);
	return merged.clean && mergedText(merged) === result;
}
