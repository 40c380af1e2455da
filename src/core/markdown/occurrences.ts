/**
 * Addresses for repeated names, as Local REST API 5.1 gives them: a heading repeated under the same parent, or a block
 * id used twice, is addressable at each occurrence. The first keeps its plain text; each later one carries a suffix of
 * two private-use characters (the same pair LRA 5.1 uses, so a client that copies keys verbatim works with both),
 * then, from the third on, its number. Clients copy these keys from the document map; they never type them.
 */

export const DUPLICATE_MARKER = "\u{FC750}\u{F6440}";

/** The key of the `occurrence`-th (1-based) name `text` among its siblings. */
export function occurrenceKey(text: string, occurrence: number): string {
	if (occurrence <= 1) return text;
	return occurrence === 2 ? text + DUPLICATE_MARKER : `${text}${DUPLICATE_MARKER}${occurrence}`;
}

/** What a key names: the plain text and which occurrence of it (1 for a key without the suffix). */
export function parseOccurrence(key: string): { text: string; occurrence: number } {
	const at = key.lastIndexOf(DUPLICATE_MARKER);
	if (at < 0) return { text: key, occurrence: 1 };
	const rest = key.slice(at + DUPLICATE_MARKER.length);
	if (rest === "") return { text: key.slice(0, at), occurrence: 2 };
	// Only a number we would have written (3 and up, no leading zero) is a suffix; anything else is part of the text.
	if (!/^[1-9][0-9]{0,8}$/.test(rest) || Number(rest) < 3) return { text: key, occurrence: 1 };
	return { text: key.slice(0, at), occurrence: Number(rest) };
}

/** Counts names as they come, handing each its key (one counter per parent: siblings only). */
export class OccurrenceCounter {
	private readonly seen = new Map<string, number>();

	next(text: string): string {
		const occurrence = (this.seen.get(text) ?? 0) + 1;
		this.seen.set(text, occurrence);
		return occurrenceKey(text, occurrence);
	}
}
