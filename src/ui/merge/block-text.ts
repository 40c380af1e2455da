/** Text rules for merge blocks: line endings, a choice's text, conflict markers, and a block's textarea form. */
import { MARKERS } from "../../core/merge";
import { eolOf } from "../../core/markdown/lines";

/** How a conflict was settled by a button. */
export type Choice = "mine" | "theirs" | "mine-theirs" | "theirs-mine" | "base";

export interface ConflictTexts {
	base: string;
	mine: string;
	theirs: string;
}

/** Offset just after the first `lines` lines (or the end). */
export function offsetAfterLines(text: string, lines: number): number {
	let offset = 0;
	for (let i = 0; i < lines; i++) {
		const newline = text.indexOf("\n", offset);
		if (newline === -1) return text.length;
		offset = newline + 1;
	}
	return offset;
}

/** Offset where the last `lines` lines begin (or 0). */
export function offsetBeforeLastLines(text: string, lines: number): number {
	// A final line without terminator is a line too, so start from the end of text, not from its last newline.
	let end = text.endsWith("\n") ? text.length - 1 : text.length;
	for (let i = 0; i < lines; i++) {
		const newline = text.lastIndexOf("\n", end - 1);
		if (newline === -1) return 0;
		end = newline;
	}
	return end + 1;
}

/** One text after the other, as whole lines: a first part without a final newline gets one. */
export function joinLines(first: string, second: string, eol: string): string {
	if (first === "" || second === "") return first + second;
	return first.endsWith("\n") ? first + second : first + eol + second;
}

export function choiceText(conflict: ConflictTexts, choice: Choice, eol: string): string {
	switch (choice) {
		case "mine":
			return conflict.mine;
		case "theirs":
			return conflict.theirs;
		case "base":
			return conflict.base;
		case "mine-theirs":
			return joinLines(conflict.mine, conflict.theirs, conflictEol(conflict, eol));
		case "theirs-mine":
			return joinLines(conflict.theirs, conflict.mine, conflictEol(conflict, eol));
	}
}

/** git-style markers, byte for byte what renderMerge writes for this conflict (no diff3). */
export function markerText(conflict: ConflictTexts, documentEol: string): string {
	const eol = conflictEol(conflict, documentEol);
	const side = (text: string) => (text === "" || text.endsWith("\n") ? text : text + eol);
	return (
		MARKERS.mine + eol + side(conflict.mine) + MARKERS.separator + eol + side(conflict.theirs) + MARKERS.theirs + eol
	);
}

/** Markers follow the conflict's own line endings, like git, so a CRLF note stays CRLF. */
function conflictEol(conflict: ConflictTexts, documentEol: string): string {
	return eolOf(conflict.mine) ?? eolOf(conflict.theirs) ?? eolOf(conflict.base) ?? documentEol;
}

/**
 * What a block's textarea shows: its lines without the last terminator (a textarea would show it as a
 * phantom empty line), and "\n" for line ends, as a textarea reports them anyway.
 */
export function toDisplay(text: string): string {
	const trimmed = text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\n") ? text.slice(0, -1) : text;
	return trimmed.replace(/\r\n/g, "\n");
}

/**
 * The block text for what the person typed. `reference` is the text the block had before any typing: typing
 * back exactly what it showed gives it back byte for byte (so a blank line survives a round trip); an emptied
 * block has no lines; otherwise the block keeps the reference's line ending and final newline.
 * `terminatedWhenEmpty` says whether text typed into a block that had no lines ends with a newline.
 */
export function fromDisplay(value: string, reference: string, eol: string, terminatedWhenEmpty: boolean): string {
	const typed = value.replace(/\r\n/g, "\n");
	if (typed === toDisplay(reference)) return reference;
	if (typed === "") return "";
	const lineEnd = eolOf(reference) ?? eol;
	const terminated = reference === "" ? terminatedWhenEmpty : reference.endsWith("\n");
	return typed.replace(/\n/g, lineEnd) + (terminated ? lineEnd : "");
}
