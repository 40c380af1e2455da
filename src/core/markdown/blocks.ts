/**
 * Block references (`^block-id`), as Obsidian writes them: an id at the end of a line outside code and frontmatter.
 * The id ends the block it names: the list item or paragraph it closes, or, alone on its line, the block above it
 * (a table, a list, a paragraph), blank lines between allowed.
 */
import { isBlankLine } from "./lines";
import { OccurrenceCounter, parseOccurrence } from "./occurrences";
import type { MarkdownStructure } from "./structure";

export interface Block {
	id: string;
	/** Offsets of the block's text, without its id: [bodyStart, bodyEnd). Empty when an id stands alone with nothing above it. */
	bodyStart: number;
	bodyEnd: number;
	/** The id follows text on its last line (`text ^id`), rather than standing on its own line. */
	inline: boolean;
	/** Offsets of the whole block, id included, lines and line breaks whole: what deleting it removes. */
	start: number;
	end: number;
}

const INLINE_ID = /[ \t]+\^([A-Za-z0-9-]+)[ \t]*$/;
const LONE_ID = /^[ \t]*\^([A-Za-z0-9-]+)[ \t]*$/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/;

/** Every block id in note order (a repeated id appears each time). One pass: a note of a million ids stays linear. */
export function findBlocks(doc: MarkdownStructure): Block[] {
	const { lines } = doc;
	const headingLines = new Set(doc.headings.map((heading) => heading.line));
	const first = doc.frontmatter?.bodyLine ?? 0;
	const isText = (index: number) =>
		index >= first && !doc.code.has(index) && !headingLines.has(index) && !isBlankLine(lines[index]!.text);
	// For each text line: where its run of text lines starts, and the nearest list item at or above it in that run.
	const runStart = new Int32Array(lines.length).fill(-1);
	const lastItem = new Int32Array(lines.length).fill(-1);
	const blocks: Block[] = [];
	for (let index = first; index < lines.length; index++) {
		if (isText(index)) {
			const continues = index > first && runStart[index - 1]! >= 0;
			runStart[index] = continues ? runStart[index - 1]! : index;
			lastItem[index] = LIST_ITEM.test(lines[index]!.text) ? index : continues ? lastItem[index - 1]! : -1;
		}
		if (doc.code.has(index) || headingLines.has(index)) continue;
		const line = lines[index]!;
		const lone = LONE_ID.exec(line.text);
		if (lone) {
			let last = index - 1;
			while (last >= first && isBlankLine(lines[last]!.text) && !doc.code.has(last)) last--;
			if (last < first || !isText(last)) {
				blocks.push({
					id: lone[1]!,
					bodyStart: line.start,
					bodyEnd: line.start,
					inline: false,
					start: line.start,
					end: line.next,
				});
				continue;
			}
			// A list (or a table, or a quote) is one block whole; a paragraph stops below the list item above it.
			const top = lastItem[last] === last || lastItem[last]! < 0 ? runStart[last]! : lastItem[last]! + 1;
			blocks.push({
				id: lone[1]!,
				bodyStart: lines[top]!.start,
				bodyEnd: lines[last]!.end,
				inline: false,
				start: lines[top]!.start,
				end: line.next,
			});
			continue;
		}
		const inline = INLINE_ID.exec(line.text);
		if (!inline) continue;
		// The list item it closes (a line continuing an item belongs to it), or its paragraph.
		const top = lastItem[index]! >= 0 ? lastItem[index]! : runStart[index]!;
		blocks.push({
			id: inline[1]!,
			bodyStart: lines[top]!.start,
			bodyEnd: line.start + inline.index,
			inline: true,
			start: lines[top]!.start,
			end: line.next,
		});
	}
	return blocks;
}

/** Each block's key, in note order: its id, with an occurrence suffix when an earlier block has the same id. */
export function blockKeys(blocks: readonly Block[]): string[] {
	const counter = new OccurrenceCounter();
	return blocks.map((block) => counter.next(block.id));
}

/** The block a key names (an id names its first occurrence; a suffixed key a later one), and its plain id. */
export function blockByKey(
	blocks: readonly Block[],
	key: string,
): { id: string; occurrence: number; block: Block | undefined } {
	const { text: id, occurrence } = parseOccurrence(key);
	let seen = 0;
	for (const block of blocks) if (block.id === id && ++seen === occurrence) return { id, occurrence, block };
	return { id, occurrence, block: undefined };
}
