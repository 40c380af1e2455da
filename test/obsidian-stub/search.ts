/**
 * Obsidian's `prepareSimpleSearch`, to its documented contract: the query is space-separated words, a text matches
 * only when it holds every word (ignoring case), and the matches are every occurrence of each word as [from, to]
 * offsets, in text order. Obsidian's score is its own and undocumented: the simulation scores by how early the first
 * match falls (0 at the start, more negative later), deliberately unlike the headless host's score, so tests can tell
 * whose search answered. `calls` counts the searches prepared (tests check Obsidian's own search was used).
 */
export interface SearchResult {
	score: number;
	matches: [number, number][];
}

export const simpleSearchCalls = { count: 0 };

export function prepareSimpleSearch(query: string): (text: string) => SearchResult | null {
	simpleSearchCalls.count++;
	const words: string[] = [];
	for (const word of query.toLowerCase().split(" ")) if (word !== "" && !words.includes(word)) words.push(word);
	return (text) => {
		if (words.length === 0) return null;
		const lower = text.toLowerCase();
		const matches: [number, number][] = [];
		for (const word of words) {
			let from = lower.indexOf(word);
			if (from === -1) return null;
			for (; from !== -1; from = lower.indexOf(word, from + word.length)) matches.push([from, from + word.length]);
		}
		matches.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
		return { score: -matches[0]![0], matches };
	};
}
