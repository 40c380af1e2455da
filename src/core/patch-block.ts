/**
 * PATCH of a block named by its `^id` (see markdown/blocks.ts). Its text is changed and its id kept where Obsidian
 * finds it: at the end of the block's last line, or on its own line below. `delete` removes the block with its id.
 */
import { findBlocks } from "./markdown/blocks";
import { parseMarkdown } from "./markdown/structure";
import type { PatchOperation, PatchResult } from "./patch";

const BLOCK_ID = /^[A-Za-z0-9-]+$/;

export function patchBlock(content: string, operation: PatchOperation, target: string, body: string, create: boolean): PatchResult {
	const id = target.startsWith("^") ? target.slice(1) : target;
	if (!BLOCK_ID.test(id)) return { ok: false, reason: "invalid-target", detail: `"${target}" is not a block id: an id is letters, digits and dashes (send it without the ^); nothing was changed.` };
	const doc = parseMarkdown(content);
	const blocks = findBlocks(doc).filter((block) => block.id === id);
	if (blocks.length > 1) return { ok: false, reason: "ambiguous-target", detail: `The note has ${blocks.length} blocks with the id ^${id}, so the patch could not tell which one you meant; nothing was changed. Give one of them another id.` };
	const text = body.replace(/(\r?\n)+$/, "").replace(/\r?\n/g, doc.eol);
	const block = blocks[0];
	if (!block) {
		if (!create || operation === "delete") {
			const known = [...new Set(findBlocks(doc).map((found) => `^${found.id}`))].slice(0, 20);
			return { ok: false, reason: "target-not-found", detail: `The note has no block ^${id}, so nothing was changed.` + (known.length > 0 ? ` Its block ids: ${known.join(" ")}.` : " It has no block ids.") + " Send Create-Target-If-Missing: true (createTargetIfMissing in a JSON instruction) to add it at the end of the note." };
		}
		// A new paragraph at the end of the note, closed by the id.
		const gap = content === "" ? "" : content.endsWith("\n\n") ? "" : content.endsWith("\n") ? doc.eol : doc.eol + doc.eol;
		return { ok: true, content: `${content}${gap}${text} ^${id}${doc.eol}` };
	}
	const old = content.slice(block.bodyStart, block.bodyEnd);
	const empty = block.bodyStart === block.bodyEnd;
	let next: string;
	switch (operation) {
		case "delete":
			return { ok: true, content: content.slice(0, block.start) + content.slice(block.end) };
		case "replace":
			next = text;
			break;
		case "append":
			next = empty ? text : old + doc.eol + text;
			break;
		case "prepend":
			next = empty ? text : text + doc.eol + old;
			break;
	}
	// An id alone on its line needs the block right above it; an empty block gets its own line.
	if (empty && !block.inline && next !== "") next += doc.eol;
	return { ok: true, content: content.slice(0, block.bodyStart) + next + content.slice(block.bodyEnd) };
}
