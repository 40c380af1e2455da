/**
 * Bounded pieces of a long text (a diff, a merge preview), for answers that must stay small: a page holds whole
 * lines, ends at a hunk boundary when one falls in its second half, and says where the next page starts. A single
 * line longer than the whole page is the one exception: it is cut at the limit and marked, so no answer is ever
 * unbounded (a one-line 5 MB note would otherwise make a 5 MB answer).
 */
import { fitsInUtf8, truncateUtf8, utf8Length } from "../utf8";

export interface Page {
	text: string;
	/** True when lines after this page were left out. */
	truncated: boolean;
	/** The line to ask for next (the `offset` of the next page), or null on the last page. */
	nextOffset: number | null;
	/** True when a line longer than a page was cut (marked in the text); read the note itself for all of it. */
	lineCut: boolean;
}

/** Lines [offset, …) of `lines` up to `maxBytes` of UTF-8. */
export function pageOfLines(lines: readonly string[], offset: number, maxBytes: number): Page {
	const start = Math.min(Math.max(0, Math.floor(offset)), lines.length);
	let bytes = 0;
	let end = start;
	while (end < lines.length) {
		const size = utf8Length(lines[end]!);
		if (bytes + size > maxBytes) {
			// A line that no page could hold is cut into the room this page has left, marked as cut.
			if (size > maxBytes && maxBytes - bytes > CUT_NOTE_BYTES) {
				const text = lines.slice(start, end).join("") + cutLine(lines[end]!, maxBytes - bytes);
				const more = end + 1 < lines.length;
				return { text, truncated: more, nextOffset: more ? end + 1 : null, lineCut: true };
			}
			break;
		}
		bytes += size;
		end++;
	}
	if (end === start && start < lines.length) {
		const more = start + 1 < lines.length;
		return {
			text: cutLine(lines[start]!, maxBytes),
			truncated: more,
			nextOffset: more ? start + 1 : null,
			lineCut: true,
		};
	}
	if (end < lines.length) {
		// A page that ends at a hunk header leaves every hunk whole, unless that would waste most of the page.
		for (let at = end - 1; at > start && at - start >= (end - start) / 2; at--) {
			if (lines[at]!.startsWith("@@ ")) {
				end = at;
				break;
			}
		}
	}
	const truncated = end < lines.length;
	return { text: lines.slice(start, end).join(""), truncated, nextOffset: truncated ? end : null, lineCut: false };
}

/** The first `maxBytes` of a text, cut after a whole line (or inside a first line longer than that, marked). */
export function headOfText(text: string, maxBytes: number): Page {
	if (fitsInUtf8(text, maxBytes)) return { text, truncated: false, nextOffset: null, lineCut: false };
	let bytes = 0;
	let at = 0;
	while (at < text.length) {
		const newline = text.indexOf("\n", at);
		const end = newline === -1 ? text.length : newline + 1;
		const size = utf8Length(text.slice(at, end));
		if (bytes + size > maxBytes) break;
		bytes += size;
		at = end;
	}
	if (at === 0)
		return {
			text: cutLine(text.slice(0, text.indexOf("\n") + 1 || text.length), maxBytes),
			truncated: true,
			nextOffset: null,
			lineCut: true,
		};
	return { text: text.slice(0, at), truncated: true, nextOffset: null, lineCut: false };
}

/** A line cut to fit `maxBytes` with the note that says so (a diff comment line, as `\ No newline` is). */
function cutLine(line: string, maxBytes: number): string {
	const kept = truncateUtf8(line, Math.max(0, maxBytes - CUT_NOTE_BYTES));
	const rest = utf8Length(line) - utf8Length(kept);
	return `${kept}\n\\ Line cut here at the answer size limit: ${rest} more bytes; read the note for the whole line\n`;
}

/** Room kept for the cut note (its text and the byte count); a line is cut only where more than this is left. */
const CUT_NOTE_BYTES = 120;
