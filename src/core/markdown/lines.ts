/**
 * Lines and line endings, once for the whole core. Two views of the same split: `splitLines` keeps each line's
 * terminator (joining them gives the exact text back, CRLF and a missing final newline included), for diff and
 * merge; `scanLines` gives each line's offsets and text without its terminator, for edits at exact positions.
 */
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

/** One line of a note by offsets. */
export interface Line {
	/** Offset of the line's first character. */
	start: number;
	/** Offset just before its line break (or the end of the note). */
	end: number;
	/** Offset just after its line break; equals `end` on a last line without one. */
	next: number;
	/** The line without its terminator. */
	text: string;
}

export function scanLines(content: string): Line[] {
	const lines: Line[] = [];
	let start = 0;
	while (start < content.length) {
		const newline = content.indexOf("\n", start);
		const stop = newline === -1 ? content.length : newline;
		const end = stop > start && content[stop - 1] === "\r" ? stop - 1 : stop;
		const next = newline === -1 ? content.length : newline + 1;
		lines.push({ start, end, next, text: content.slice(start, end) });
		start = next;
	}
	return lines;
}

/** Lines in a text; a last line without a terminator counts. */
export function lineCount(text: string): number {
	let count = 0;
	for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
	return text === "" || text.endsWith("\n") ? count : count + 1;
}

/** Empty or only spaces and tabs (terminator aside). */
export function isBlankLine(text: string): boolean {
	return /^[ \t]*(?:\r?\n)?$/.test(text);
}

/** The terminator of the first line that has one, or undefined. */
export function eolOf(text: string): "\n" | "\r\n" | undefined {
	const newline = text.indexOf("\n");
	if (newline === -1) return undefined;
	return newline > 0 && text[newline - 1] === "\r" ? "\r\n" : "\n";
}

/** The line break most of these lines use (LF on a tie), for text we add. */
export function dominantEol(lines: readonly Line[]): "\n" | "\r\n" {
	let crlf = 0;
	let lf = 0;
	for (const line of lines) {
		if (line.next - line.end === 2) crlf++;
		else if (line.next - line.end === 1) lf++;
	}
	return crlf > lf ? "\r\n" : "\n";
}
