/**
 * The headless stand-in for Obsidian's `prepareSimpleSearch`: the same contract and the same matches. The query is
 * space-separated words; a text matches when every word occurs in it, ignoring case; the matches are every
 * occurrence of every word (non-overlapping per word, scanning on from the end of the last one), in text order.
 * Obsidian does not document its score, so ours is our own: the number of occurrences found.
 */

/** A text range [from, to), in UTF-16 code units of the text searched (Obsidian's `SearchMatchPart`). */
export type MatchRange = [number, number];

/** Obsidian's `SearchResult`. */
export interface TextSearchResult {
	score: number;
	matches: MatchRange[];
}

/** A prepared search: run it on each text (Obsidian's `prepareSimpleSearch` returns the same shape). */
export type TextSearch = (text: string) => TextSearchResult | null;

/**
 * Occurrences kept per text. A common word in a 5 MB note occurs hundreds of thousands of times; past this many,
 * a text is only checked for the words it still lacks, so one note never costs more than a scan per word.
 */
export const MAX_RANGES_PER_TEXT = 1000;

export function prepareWordSearch(query: string): TextSearch {
	const words = [
		...new Set(
			query
				.toLowerCase()
				.split(" ")
				.filter((word) => word !== ""),
		),
	];
	return (text) => {
		if (words.length === 0) return null;
		const folded = foldCase(text);
		const ranges: MatchRange[] = [];
		for (const word of words) {
			let at = folded.lower.indexOf(word);
			if (at === -1) return null;
			while (at !== -1 && ranges.length < MAX_RANGES_PER_TEXT) {
				ranges.push([folded.toOriginal(at), folded.toOriginal(at + word.length)]);
				at = folded.lower.indexOf(word, at + word.length);
			}
		}
		ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
		return { score: ranges.length, matches: ranges };
	};
}

interface Folded {
	lower: string;
	/** Maps an offset in `lower` back to the text searched. */
	toOriginal(offset: number): number;
}

/**
 * The text in lower case, with a way back to the original's offsets. Almost every text lowers to the same length
 * (then offsets are shared); a few characters lower to two code units (`İ` → `i̇`), and then each character is
 * lowered alone so the offsets can be mapped back exactly.
 */
function foldCase(text: string): Folded {
	const lower = text.toLowerCase();
	if (lower.length === text.length) return { lower, toOriginal: (offset) => offset };
	const starts: number[] = [];
	let folded = "";
	for (let at = 0; at < text.length;) {
		const code = text.codePointAt(at)!;
		const width = code > 0xffff ? 2 : 1;
		const piece = text.slice(at, at + width).toLowerCase();
		for (let unit = 0; unit < piece.length; unit++) starts.push(at);
		folded += piece;
		at += width;
	}
	starts.push(text.length);
	return {
		lower: folded,
		// An offset inside a character that lowered to two units maps to that character's start (or, at a match's
		// end, past it), so a range never splits an original character.
		toOriginal: (offset) =>
			offset > 0 && starts[offset] === starts[offset - 1] ? nextStart(starts, offset) : starts[offset]!,
	};
}

function nextStart(starts: readonly number[], offset: number): number {
	let at = offset;
	while (at < starts.length - 1 && starts[at] === starts[offset - 1]) at++;
	return starts[at]!;
}
