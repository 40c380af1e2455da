/** Inline code spans, blanked out so what scans a line for tags or links never looks inside them (CommonMark spans). */

/** `text` with each code span (a run of backticks up to the next run of exactly the same length) turned into spaces. */
export function blankInlineCode(text: string): string {
	let result = "";
	let at = 0;
	while (at < text.length) {
		const open = text.indexOf("`", at);
		if (open === -1) break;
		let length = 1;
		while (text[open + length] === "`") length++;
		const close = findRun(text, open + length, length);
		if (close === -1) {
			// An unmatched run is literal text; what follows it may still hold tags or links.
			result += text.slice(at, open + length);
			at = open + length;
			continue;
		}
		result += text.slice(at, open) + " ".repeat(close + length - open);
		at = close + length;
	}
	return result + text.slice(at);
}

function findRun(text: string, from: number, length: number): number {
	for (let at = text.indexOf("`", from); at !== -1;) {
		let run = 1;
		while (text[at + run] === "`") run++;
		if (run === length) return at;
		at = text.indexOf("`", at + run);
	}
	return -1;
}
