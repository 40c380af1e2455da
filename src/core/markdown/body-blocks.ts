/**
 * The top-level blocks of a heading's own body (before its first subheading): paragraphs, lists, tables, quotes and
 * fenced code, separated by blank lines, as a PATCH `within` index counts them. A fence is one block whatever blank
 * lines it holds; a list whose items are spaced by blank lines is one block; a `^id` alone on its line is not counted
 * (it names the block above it, and renders as nothing).
 */
import { isBlankLine } from "./lines";
import type { MarkdownStructure } from "./structure";

export interface BodyBlock {
	/** Offset of the block's first character. */
	start: number;
	/** Offset just before the line break of its last line (the end of its text). */
	end: number;
	/** Offset just after its last line break (equals `end` at a note's unterminated end). */
	next: number;
}

const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/;
const CONTINUATION = /^(?: {2,}|\t)\S/;
const LONE_ID = /^[ \t]*\^[A-Za-z0-9-]+[ \t]*$/;

/** Blocks in lines [from, to) of the note. */
export function bodyBlocks(doc: MarkdownStructure, from: number, to: number): BodyBlock[] {
	const { lines, code } = doc;
	const blank = (index: number) => !code.has(index) && isBlankLine(lines[index]!.text);
	const blocks: BodyBlock[] = [];
	let list = false;
	let index = from;
	while (index < to) {
		if (blank(index) || (!code.has(index) && LONE_ID.test(lines[index]!.text))) {
			index++;
			continue;
		}
		const first = index;
		while (index < to && !blank(index)) index++;
		let last = index - 1;
		// An id line closing the block is not its text: edits of the block land above it.
		while (last > first && !code.has(last) && LONE_ID.test(lines[last]!.text)) last--;
		// A loose list: blank lines between items (or before an indented continuation) keep it one block.
		const previous = blocks[blocks.length - 1];
		const text = lines[first]!.text;
		if (previous && list && !code.has(first) && (LIST_ITEM.test(text) || CONTINUATION.test(text))) {
			previous.end = lines[last]!.end;
			previous.next = lines[last]!.next;
			continue;
		}
		list = !code.has(first) && LIST_ITEM.test(text);
		blocks.push({ start: lines[first]!.start, end: lines[last]!.end, next: lines[last]!.next });
	}
	return blocks;
}
