/**
 * How much of an agent's refused proposal ended up in the note once a conflict was resolved: all of its changes,
 * some, or none. The one judgement for every way a conflict is resolved (the merge modal's save, or any write on top
 * of the refused revision). Judged by change, not by text, so a result that keeps every agent edit on top of the
 * person's newer edits, or beside them, still counts as "whole".
 */
import { mergeThreeWaySteps, type MergeResult } from "./merge";
import { splitLines } from "./markdown/lines";
import { cutKeepsDiffs, sharedStartCut } from "./shared-start";
import { finishNow, type Steps } from "./steps";

export type AgentTaken = "whole" | "partial" | "none";

export interface AgentTakenSides {
	/** What the agent read; null if no longer retained. */
	base: string | null;
	/** The note the agent was refused against. */
	mine: string;
	/** What the agent proposed. */
	theirs: string;
	/** The note as resolved. */
	result: string;
	/** True when the result was saved with conflicts left undecided: some of the agent's work is then only in markers. */
	unresolved?: boolean;
}

export function agentTakenOf(sides: AgentTakenSides): AgentTaken {
	return finishNow(agentTakenSteps(sides));
}

export interface AgentTakenOptions {
	/** Merge the notes whole, not past the start they share (tests compare the two). */
	wholeNotes?: boolean;
	/**
	 * The lines of `mine`, when the caller judges several records against one note (one accepted write settles every
	 * record refused against the note it replaced): it keeps them, this only reads them. Worked out here otherwise.
	 */
	mineLines?: () => ReadonlySet<string>;
}

/**
 * The same judgement as steps, so a host can run it in slices (it merges up to three times). The start all four
 * sides share is left out of the merges where that cannot change them (shared-start.ts).
 */
export function* agentTakenSteps(
	{ base, mine, theirs, result, unresolved = false }: AgentTakenSides,
	{ wholeNotes = false, mineLines = lazyLines(mine) }: AgentTakenOptions = {},
): Steps<AgentTaken> {
	if (unresolved) return "partial";
	if (result === theirs) return "whole";
	if (base === null) return result === mine ? "none" : "partial";
	if (theirs === base) return "none";
	const cut = wholeNotes ? 0 : sharedStartCut([base, mine, theirs, result]);
	const [b, m, t, r] = [base, mine, theirs, result].map((text) => text.slice(cut)) as [string, string, string, string];
	// Re-applying the agent's changes to the result adds nothing: they are all there (the person's text may sit beside them).
	if (allTaken(yield* mergeThreeWaySteps(b, r, t))) return "whole";
	// Changes the person made too are theirs as much as the agent's: they never count against "none".
	const sharedAfterCut = sharedChanges(yield* mergeThreeWaySteps(b, m, t));
	// That text is new: it is merged cut only if it too diffs as it would whole (else the three are merged whole).
	const shared = base.slice(0, cut) + sharedAfterCut;
	const third =
		cut === 0 || cutKeepsDiffs([theirs, result, shared], cut) ? [t, r, sharedAfterCut] : [theirs, result, shared];
	// Reverting the agent's own changes from the result finds none of them there (the person's lines: all of them).
	if (noneTaken(yield* mergeThreeWaySteps(third[0]!, third[1]!, third[2]!), mineLines)) return "none";
	return "partial";
}

/**
 * Merging `base → theirs` into the result: every agent change is there when no region takes the agent's side alone,
 * and where the result and the agent changed the same lines, the result holds every line the agent added and none it
 * removed (an agent change that only removed lines is there when the result holds nothing but the agent's lines).
 */
function allTaken(merged: MergeResult): boolean {
	for (const region of merged.regions) {
		if (region.kind === "stable") {
			if (region.origin === "theirs") return false;
			continue;
		}
		const [before, agent, result] = [lineSet(region.base), lineSet(region.theirs), lineSet(region.mine)];
		const added = [...agent].filter((line) => !before.has(line));
		const removed = [...before].filter((line) => !agent.has(line));
		const taken =
			added.length === 0
				? [...result].every((line) => agent.has(line))
				: added.every((line) => result.has(line)) && !removed.some((line) => result.has(line));
		if (!taken) return false;
	}
	return true;
}

/**
 * Merging `theirs → shared` into the result (reverting the agent's own changes): none is there when no region keeps
 * the agent's text untouched, and where the result changed the agent's lines it holds none of the lines the agent
 * added and no text of its own beyond what the person's note or the base had (typing a new text counts as partly taken).
 */
function noneTaken(merged: MergeResult, mineLines: () => ReadonlySet<string>): boolean {
	for (const region of merged.regions) {
		if (region.kind === "stable") {
			if (region.origin === "theirs") return false;
			continue;
		}
		const [agent, without, result] = [lineSet(region.base), lineSet(region.theirs), lineSet(region.mine)];
		const added = [...agent].filter((line) => !without.has(line));
		if (added.some((line) => result.has(line))) return false;
		if ([...result].some((line) => !without.has(line) && !mineLines().has(line))) return false;
	}
	return true;
}

/** The base with only the changes both sides made (the others left as the base had them). */
function sharedChanges(merged: MergeResult): string {
	let text = "";
	for (const region of merged.regions) {
		if (region.kind === "conflict") text += region.base;
		else text += region.origin === "base" || region.origin === "both" ? region.text : (region.base ?? "");
	}
	return text;
}

/** A text's lines without their terminators, as a set. */
function lineSet(text: string): Set<string> {
	return new Set(splitLines(text).map(withoutTerminator));
}

/** A note's lines, worked out on first use and then kept by the caller (see AgentTakenOptions.mineLines). */
export function lazyLines(text: string): () => ReadonlySet<string> {
	let lines: ReadonlySet<string> | null = null;
	return () => (lines ??= lineSet(text));
}

function withoutTerminator(line: string): string {
	return line.replace(/\r?\n$/, "");
}
