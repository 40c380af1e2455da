/**
 * Bounded pieces of a long text (a diff, a merge preview), for answers that must stay small: a page holds whole
 * lines only, ends at a hunk boundary when one falls in its second half, and says where the next page starts.
 */
import { utf8Length } from "../utf8";

export interface Page {
	text: string;
	/** True when lines after this page were left out. */
	truncated: boolean;
	/** The line to ask for next (the `offset` of the next page), or null on the last page. */
	nextOffset: number | null;
}

/**
 * Lines [offset, …) of `lines` up to `maxBytes` of UTF-8. A page always holds at least one line, so one line longer
 * than `maxBytes` is sent whole rather than cut in half.
 */
export function pageOfLines(lines: readonly string[], offset: number, maxBytes: number): Page {
	const start = Math.min(Math.max(0, Math.floor(offset)), lines.length);
	let bytes = 0;
	let end = start;
	while (end < lines.length) {
		const size = utf8Length(lines[end]!);
		if (end > start && bytes + size > maxBytes) break;
		bytes += size;
		end++;
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
	return { text: lines.slice(start, end).join(""), truncated, nextOffset: truncated ? end : null };
}

/** The first `maxBytes` of a text, cut after a whole line (at least one line). */
export function headOfText(text: string, maxBytes: number): Page {
	if (utf8Length(text) <= maxBytes) return { text, truncated: false, nextOffset: null };
	let bytes = 0;
	let at = 0;
	let cut = -1;
	while (at < text.length) {
		const newline = text.indexOf("\n", at);
		const end = newline === -1 ? text.length : newline + 1;
		const size = utf8Length(text.slice(at, end));
		if (cut !== -1 && bytes + size > maxBytes) break;
		bytes += size;
		cut = end;
		at = end;
	}
	return { text: text.slice(0, cut), truncated: cut < text.length, nextOffset: null };
}
