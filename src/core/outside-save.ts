/**
 * Whether a save made by another program straight to the file dropped someone else's edit (a lost update).
 *
 * The program's save W replaced revision P, whose own previous revision was B. W is a probable lost update when both:
 * - W was not made from P: it lacks P's changes relative to B (the three-way merge of B, P and W is not W itself);
 * - W has changes of its own: it is not a pure undo back to an earlier revision of the note.
 *
 * Where W and P changed the same lines, the merge cannot tell "W edited P's new lines further" from "W rewrote B's
 * lines without P's edit"; each such place is judged by whether W's text carries the characters P's edit added (or
 * lacks those it removed). Less than most counts as lost: when in doubt, the person is told and P is kept.
 */
import { markChanges } from "./diff/myers";
import { mergeThreeWaySteps, mergedText, type MergeResult } from "./merge";
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
		if (!(yield* builtOnSteps(region.mine, region.theirs, region.base))) return { kind: "lost", merge, merged: null };
	}
	return stablePartsIn(merge, written) ? { kind: "kept" } : { kind: "lost", merge, merged: null };
}

/**
 * In an overlap, W built on P when it carries P's edit, character by character (typing inside a word, a moved mark
 * and new indentation are edits too): most characters P added to B's text are still in W's, or, when P only removed
 * characters, most of those are not back in W's.
 */
const MIN_RUN = 3;

function* builtOnSteps(previous: string, written: string, parent: string): Steps<boolean> {
	const ids = new Map<string, number>();
	const encode = (text: string) => Int32Array.from(text, (char) => {
		let id = ids.get(char);
		if (id === undefined) ids.set(char, (id = ids.size));
		return id;
	});
	const [b, p, w] = [encode(parent), encode(previous), encode(written)];
	const fromParent = yield* markChanges(b, p, ids.size);
	let added = 0;
	let addedKept = 0;
	const toWritten = yield* markChanges(p, w, ids.size);
	// A character counts as carried only inside a run of MIN_RUN or more that W kept: unrelated texts share letters.
	let runStart = 0;
	for (let j = 0; j <= p.length; j++) {
		if (j < p.length && fromParent.b[j]) added++;
		if (j < p.length && !toWritten.a[j]) continue;
		if (j - runStart >= MIN_RUN) for (let k = runStart; k < j; k++) if (fromParent.b[k]) addedKept++;
		runStart = j + 1;
	}
	if (added > 0) return addedKept * 2 > added;
	const parentToWritten = yield* markChanges(b, w, ids.size);
	let removed = 0;
	let removedGone = 0;
	for (let i = 0; i < b.length; i++) {
		if (!fromParent.a[i]) continue;
		removed++;
		if (parentToWritten.a[i]) removedGone++;
	}
	return removedGone * 2 > removed;
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
