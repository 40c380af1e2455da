/**
 * `within`: one top-level block of a heading's own body, by index (0 the first, -1 the last; see
 * markdown/body-blocks.ts). Scope `content` splices the text into the block literally (the client owns the joint:
 * `append` of "\n- item" continues a list, of " more" continues its last line); `delete` removes the block. Scope
 * `markerAndContent` adds a new block before or after it (prepend, append) or puts one in its place (replace).
 */
import { bodyBlocks, type BodyBlock } from "./markdown/body-blocks";
import type { Section } from "./markdown/sections";
import type { MarkdownStructure } from "./markdown/structure";
import { contentPreexists, fail, type PatchInstruction, type PatchResult, type PatchWarning } from "./patch";
import { shiftHeadings, trimBlankEdges } from "./patch-levels";

export function patchWithin(
	content: string,
	doc: MarkdownStructure,
	section: Section,
	instruction: PatchInstruction,
	body: string,
): PatchResult {
	const firstChild = doc.headings.find((heading) => heading.line > section.line);
	const endLine =
		firstChild && doc.lines[firstChild.line]!.start < section.end ? firstChild.line : lineAt(doc, section.end);
	const blocks = bodyBlocks(doc, section.line + 1, endLine);
	const index = instruction.within ?? 0;
	const block = blocks[index < 0 ? blocks.length + index : index];
	if (!block) {
		return fail(
			"target-not-found",
			`within ${index} is out of range: the section "${instruction.target}" has ${blocks.length} block${blocks.length === 1 ? "" : "s"} ` +
				`in its own body (before its first subheading), so nothing was changed. Use 0 to ${Math.max(0, blocks.length - 1)}, ` +
				`or -1 for the last.`,
		);
	}
	const preexists = contentPreexists(instruction, content.slice(block.start, block.end), body);
	if (preexists) return preexists;
	if (instruction.operation === "delete") return removeBlock(content, block);
	if (instruction.scope !== "markerAndContent") {
		const [from, to] =
			instruction.operation === "append"
				? [block.end, block.end]
				: instruction.operation === "prepend"
					? [block.start, block.start]
					: [block.start, block.end];
		return { ok: true, content: content.slice(0, from) + body + content.slice(to) };
	}
	const warnings: PatchWarning[] = [];
	// A new block is body text of the section: `#` in it becomes a direct child of the heading (format 2).
	const text = instruction.relativeHeadings
		? shiftHeadings(trimBlankEdges(body), section.level, warnings)
		: trimBlankEdges(body);
	const eol = doc.eol;
	const done = (next: string): PatchResult => ({
		ok: true,
		content: next,
		...(warnings.length > 0 ? { warnings } : {}),
	});
	switch (instruction.operation) {
		case "prepend":
			return done(content.slice(0, block.start) + text + eol + eol + content.slice(block.start));
		case "append":
			// After the block's last line break (one is added at a note's unterminated end).
			return done(
				content.slice(0, block.end) +
					eol +
					eol +
					text +
					(block.next === block.end ? "" : eol) +
					content.slice(block.next),
			);
		case "replace":
			return done(content.slice(0, block.start) + text + content.slice(block.end));
	}
}

/** The block's lines go, with one blank line beside them so the blocks around it keep one gap between them. */
function removeBlock(content: string, block: BodyBlock): PatchResult {
	const after = /^[ \t]*\r?\n/.exec(content.slice(block.next));
	if (after) return { ok: true, content: content.slice(0, block.start) + content.slice(block.next + after[0].length) };
	const before = /\r?\n[ \t]*\r?\n$/.exec(content.slice(0, block.start));
	const start = before ? block.start - before[0].length + before[0].search(/\n/) + 1 : block.start;
	return { ok: true, content: content.slice(0, start) + content.slice(block.next) };
}

/** The index of the line starting at `offset` (the line count at the note's end). */
function lineAt(doc: MarkdownStructure, offset: number): number {
	const index = doc.lines.findIndex((line) => line.start >= offset);
	return index === -1 ? doc.lines.length : index;
}
