/** Splits text into lines that keep their terminators, so joining them gives the exact text back (CRLF, a missing final newline and all). */
export function splitLines(text: string): string[] {
	const lines: string[] = [];
	let start = 0;
	for (;;) {
		const newline = text.indexOf("\n", start);
		if (newline === -1) break;
		lines.push(text.slice(start, newline + 1));
		start = newline + 1;
	}
	if (start < text.length) lines.push(text.slice(start));
	return lines;
}
