/**
 * Whether a program's save W carries the change revision P made at one place of the note (core/outside-save.ts).
 *
 * A place is where P changed the text of its parent B: B's lines there, P's and W's. P's change is carried when:
 * 1. every line P's change put there is a line W has as often as P does, anywhere in W (the merge may pair W's copy
 *    with a neighbouring place; indentation and blank lines aside), or else
 * 2. word by word, W edited P's text further: W's text of the place keeps at least three in five of the words P's
 *    change added (a token diff of P against W there). Where P added no word, the same for its other characters, then
 *    for its spaces (indentation). Where P only removed, three in five of the words it removed are gone from W's text.
 *    Where P changed only blank lines, nothing P wrote is lost.
 * A place too big to compare word by word counts as carried only by rule 1: when in doubt, the person is told.
 *
 * Deterministic (no clock: the line diff of core/diff, on tokens) and bounded (rule 2 only on places of at most
 * WORD_COMPARE_LIMIT characters), and it yields, so a big note is judged in slices.
 */
import { internLinesSteps } from "./diff/line-diff";
import { markChanges } from "./diff/myers";
import { LINES_PER_STEP, splitLinesSteps } from "./markdown/lines";
import type { Steps } from "./steps";

export interface Place {
	/** B's text there. */
	base: string;
	/** P's text there. */
	previous: string;
	/** W's text there (B's, where W left the place as B had it). */
	written: string;
}

/** How often each line (trimmed, blank lines left out) occurs in a text. */
export type LineCounts = Map<string, number>;

/** Rule 2's share: W keeps at least three in five of the words P's change added. */
const KEPT_SHARE = 0.6;

/** The most characters B's, P's and W's texts of one place may hold together for rule 2 (a token diff each way). */
export const WORD_COMPARE_LIMIT = 200_000;

export function* lineCountsSteps(text: string): Steps<LineCounts> {
	const counts: LineCounts = new Map();
	const lines = yield* splitLinesSteps(text);
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!.trim();
		if (line !== "") counts.set(line, (counts.get(line) ?? 0) + 1);
		if ((i + 1) % LINES_PER_STEP === 0) yield;
	}
	return counts;
}

/** `previousLines` and `writtenLines` count the lines of all of P and all of W. */
/** `typing`: the note is open in the person's editor, where autosaves land in the middle of words (rule 3). */
export function* carriedSteps(
	place: Place,
	previousLines: LineCounts,
	writtenLines: LineCounts,
	typing = false,
): Steps<boolean> {
	if (yield* linesCarried(place, previousLines, writtenLines)) return true;
	if (place.base.length + place.previous.length + place.written.length > WORD_COMPARE_LIMIT) return false;
	return (yield* wordsCarried(place)) || (typing && (yield* typingCarried(place)));
}

/**
 * Rule 3, for a note open in the person's editor only (a program's save is judged by rules 1 and 2, which the corpus
 * test measures): W went on typing inside P's words (an editor's autosaves mid-word: "xxline" then "xxxxline" share no
 * word). Character by character, W keeps at least three in five of the characters P added, each inside a run of
 * RUN or more characters W kept as they were (unrelated texts share single letters, not runs).
 */
function* typingCarried(place: Place): Steps<boolean> {
	const ids = new Map<string, number>();
	const encode = (text: string) =>
		Int32Array.from(text, (char) => {
			let id = ids.get(char);
			if (id === undefined) ids.set(char, (id = ids.size));
			return id;
		});
	const [b, p, w] = [encode(place.base), encode(place.previous), encode(place.written)];
	const change = yield* markChanges(b, p, ids.size);
	const rewritten = yield* markChanges(p, w, ids.size);
	let added = 0;
	let kept = 0;
	let runStart = 0;
	for (let i = 0; i <= p.length; i++) {
		if (i < p.length && change.b[i]) added++;
		if (i < p.length && !rewritten.a[i]) continue;
		if (i - runStart >= RUN) for (let k = runStart; k < i; k++) if (change.b[k]) kept++;
		runStart = i + 1;
	}
	return added > 0 && kept >= KEPT_SHARE * added;
}

/** Rule 3's shortest run of kept characters. */
const RUN = 3;

function* linesCarried(place: Place, previousLines: LineCounts, writtenLines: LineCounts): Steps<boolean> {
	const before = yield* lineCountsSteps(place.base);
	const here = yield* lineCountsSteps(place.previous);
	let added = 0;
	for (const [line, count] of here) {
		if (count <= (before.get(line) ?? 0)) continue;
		added++;
		if ((writtenLines.get(line) ?? 0) < (previousLines.get(line) ?? 0)) return false;
	}
	return added > 0;
}

/** Words; one character of the scripts written without spaces; runs of spaces; a newline; any other character. */
const TOKEN =
	/\n|[^\S\n]+|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}])[\p{L}\p{N}\p{M}_])+|[^]/gu;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** What rule 2 counts, in turn: words, then other visible characters, then spaces within a line. */
const KINDS: readonly ((token: string) => boolean)[] = [
	(token) => HAS_WORD.test(token),
	(token) => token.trim() !== "",
	(token) => token !== "\n" && token.trim() === "",
];

function* wordsCarried(place: Place): Steps<boolean> {
	const texts: string[][] = [];
	for (const text of [place.base, place.previous, place.written]) {
		texts.push(tokensOf(text));
		yield;
	}
	const [base, previous] = texts as [string[], string[], string[]];
	const interned = yield* internLinesSteps(texts);
	const [b, p, w] = interned.ids as [Int32Array, Int32Array, Int32Array];
	const change = yield* markChanges(b, p, interned.count);
	const rewritten = yield* markChanges(p, w, interned.count);
	for (const counts of KINDS) {
		let added = 0;
		let kept = 0;
		for (let i = 0; i < previous.length; i++) {
			if (!change.b[i] || !counts(previous[i]!)) continue;
			added++;
			if (!rewritten.a[i]) kept++;
		}
		if (added > 0) return kept >= KEPT_SHARE * added;
	}
	// P only removed: W's text has lost most of what P removed too.
	const dropped = yield* markChanges(b, w, interned.count);
	for (const counts of KINDS) {
		let removed = 0;
		let gone = 0;
		for (let i = 0; i < base.length; i++) {
			if (!change.a[i] || !counts(base[i]!)) continue;
			removed++;
			if (dropped.a[i]) gone++;
		}
		if (removed > 0) return gone >= KEPT_SHARE * removed;
	}
	return true;
}

function tokensOf(text: string): string[] {
	return text.match(TOKEN) ?? [];
}
