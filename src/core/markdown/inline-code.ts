/** Inline code spans in one line of markdown: nothing inside one is a tag or a link. */

/** Blanks out inline code spans (the same width of spaces, so offsets keep): a run of backticks up to the next run of exactly the same length (CommonMark). */
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
			// An unmatched run is literal text; what follows it may still hold tags.
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
	for (let at = text.indexOf("`", from); at !== -1; ) {
		let run = 1;
		while (text[at + run] === "`") run++;
		if (run === length) return at;
		at = text.indexOf("`", at + run);
	}
	return -1;
}
