/**
 * Whether a save made by another program straight to the file dropped someone else's edit (a lost update).
 *
 * The program's save W replaced revision P, whose own previous revision was B. W is a probable lost update when both:
 * - W was not made from P: it lacks P's changes relative to B (the three-way merge of B, P and W is not W itself);
 * - W has changes of its own: it is not a pure undo back to an earlier revision of the note.
 *
 * Where W and P changed the same lines, the merge cannot tell "W edited P's new lines further" from "W rewrote B's
 * lines without P's edit"; each such place is judged by whether W's text carries the words P's edit added (or lacks
 * those it removed). Less than most counts as lost: when in doubt, the person is told and P is kept.
 */
import { mergeThreeWaySteps, mergedText, wordDiff, type MergeResult } from "./merge";
import type { Steps } from "./steps";

export interface OutsideSave {
	/** B: the revision before P (`""` when P created the note). */
	parent: string;
	/** P: what the note held before the program's save. */
	previous: string;
	/** W: what the program saved. */
	written: string;
	/** W is one of the note's earlier revisions (or B): a pure undo. */
	writtenIsEarlier: boolean;
}

export type OutsideSaveVerdict =
	/** W holds P's changes (the program had read P, or merged by hand): nothing was lost. */
	| { kind: "kept" }
	/** W is an earlier revision again: an undo, not flagged. */
	| { kind: "undo" }
	/** W dropped P's changes. `merged` is the clean merge of B, P and W (P's and W's edits both), when there is one. */
	| { kind: "lost"; merge: MergeResult; merged: string | null };

export function* judgeOutsideSaveSteps(save: OutsideSave): Steps<OutsideSaveVerdict> {
	const { parent, previous, written } = save;
	if (written === previous) return { kind: "kept" };
	if (save.writtenIsEarlier || written === parent) return { kind: "undo" };
	const merge = yield* mergeThreeWaySteps(parent, previous, written);
	if (merge.clean) {
		const merged = mergedText(merge);
		return merged === written ? { kind: "kept" } : { kind: "lost", merge, merged };
	}
	// Overlapping edits: W built on P in every overlap, and the merge's clean parts already in W, means nothing lost.
	for (const region of merge.regions) {
		if (region.kind === "stable") continue;
		if (!builtOn(region.mine, region.theirs, region.base)) return { kind: "lost", merge, merged: null };
	}
	return stablePartsIn(merge, written) ? { kind: "kept" } : { kind: "lost", merge, merged: null };
}

/**
 * In an overlap, W built on P when it carries P's edit: most words P added to B's lines are in W's, or, when P only
 * removed words, most of those are gone from W's.
 */
function builtOn(previous: string, written: string, parent: string): boolean {
	return carriesLines(previous, written, parent) || carriesWords(previous, written, parent);
}

/** Most lines P's edit added (a moved mark or new indentation is a line of its own) are in W's text as they are. */
function carriesLines(previous: string, written: string, parent: string): boolean {
	const before = new Set(parent.split("\n"));
	const added = previous.split("\n").filter((line) => line.trim() !== "" && !before.has(line));
	if (added.length === 0) return false;
	const inWritten = new Set(written.split("\n"));
	return added.filter((line) => inWritten.has(line)).length * 2 > added.length;
}

function carriesWords(previous: string, written: string, parent: string): boolean {
	const added: string[] = [];
	const removed: string[] = [];
	for (const op of wordDiff(parent, previous)) {
		if (op.kind === "insert") added.push(...wordsOf(op.text));
		else if (op.kind === "delete") removed.push(...wordsOf(op.text));
	}
	const inWritten = countWords(written);
	const found = (words: string[]) => {
		let count = 0;
		for (const word of words) {
			const left = inWritten.get(word) ?? 0;
			if (left === 0) continue;
			inWritten.set(word, left - 1);
			count++;
		}
		return count;
	};
	if (added.length > 0) return found(added) * 2 > added.length;
	return removed.length > 0 && found(removed) * 2 < removed.length;
}

/** Words with a letter or digit (punctuation and markup alone say nothing about whose edit a text carries). */
function wordsOf(text: string): string[] {
	return text.split(/[^\p{L}\p{N}_]+/u).filter((word) => word !== "");
}

function countWords(text: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const word of wordsOf(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
	return counts;
}

/** Every clean part of the merge that came from P alone is in W (W lacks none of P's edits outside the overlaps). */
function stablePartsIn(merge: MergeResult, written: string): boolean {
	let at = 0;
	for (const region of merge.regions) {
		if (region.kind !== "stable") continue;
		const found = written.indexOf(region.text, at);
		if (found < 0) return false;
		at = found + region.text.length;
	}
	return true;
}
