/** Splitting text into lines that keep their terminators, so joining them gives the exact text back (CRLF, a missing final newline and all). */
import { finishNow, type Steps } from "../steps";

/** Lines handled between two yields in the linear passes (splitting, interning, building ops, joining). */
export const LINES_PER_STEP = 16_384;

export function splitLines(text: string): string[] {
	return finishNow(splitLinesSteps(text));
}

/** The same split, yielding every LINES_PER_STEP lines (a 5 MB note is tens of thousands of them). */
export function* splitLinesSteps(text: string): Steps<string[]> {
	const lines: string[] = [];
	let start = 0;
	for (;;) {
		const newline = text.indexOf("\n", start);
		if (newline === -1) break;
		lines.push(text.slice(start, newline + 1));
		start = newline + 1;
		if (lines.length % LINES_PER_STEP === 0) yield;
	}
	if (start < text.length) lines.push(text.slice(start));
	return lines;
}

/** Joins lines[from, to) into text, yielding every LINES_PER_STEP lines. */
export function* joinLinesSteps(lines: readonly string[], from: number, to: number): Steps<string> {
	let text = "";
	for (let at = from; at < to; at += LINES_PER_STEP) {
		text += lines.slice(at, Math.min(to, at + LINES_PER_STEP)).join("");
		if (at + LINES_PER_STEP < to) yield;
	}
	return text;
}
