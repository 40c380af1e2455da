/**
 * Whether a save made by another program straight to the file dropped someone else's edit (a lost update).
 *
 * The program's save W replaced revision P, whose own previous revision was B. W is a probable lost update when both:
 * - W was not made from P: it lacks P's changes relative to B (the three-way merge of B, P and W is not W itself);
 * - W has changes of its own: it is not a pure undo back to an earlier revision of the note.
 *
 * The merge finds the places P changed that W did not take as they are: P's clean changes (W left B's text there) and
 * the overlaps (W changed the same lines). W may still carry them: a line P wrote may sit elsewhere in W, or W edited
 * P's lines further. Each place is judged by core/outside-save-carried.ts; one that W does not carry makes the verdict
 * lost: when in doubt, the person is told and P is kept.
 */
import { mergeThreeWaySteps, mergedText, type MergeResult } from "./merge";
import { carriedSteps, lineCountsSteps, type Place } from "./outside-save-carried";
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
	/**
	 * The note is open in the person's editor, so W may be their own autosave, landing in the middle of a word: typing
	 * that went on inside P's words counts as carrying them (outside-save-carried.ts, rule 3).
	 */
	openInEditor?: boolean;
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
	const merged = merge.clean ? mergedText(merge) : null;
	if (merged === written) return { kind: "kept" };
	const previousLines = yield* lineCountsSteps(previous);
	const writtenLines = yield* lineCountsSteps(written);
	for (const place of placesChangedByPrevious(merge)) {
		if (!(yield* carriedSteps(place, previousLines, writtenLines, save.openInEditor === true)))
			return { kind: "lost", merge, merged };
	}
	return { kind: "kept" };
}

/** Where P changed B and W's text is not P's: P's clean changes (W has B's text there) and the overlaps. */
function placesChangedByPrevious(merge: MergeResult): Place[] {
	const places: Place[] = [];
	for (const region of merge.regions) {
		if (region.kind === "conflict") places.push({ base: region.base, previous: region.mine, written: region.theirs });
		else if (region.origin === "mine")
			places.push({ base: region.base ?? "", previous: region.text, written: region.base ?? "" });
		// A frontmatter the rule combined from both sides' changes: W's block is its own.
		else if (
			region.origin === "both" &&
			region.mine !== undefined &&
			region.theirs !== undefined &&
			region.mine !== region.theirs
		) {
			places.push({ base: region.base ?? "", previous: region.mine, written: region.theirs });
		}
	}
	return places;
}
