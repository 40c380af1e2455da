/**
 * PATCH of a block named by its `^id` (see markdown/blocks.ts). Its text is changed and its id kept where Obsidian
 * finds it: at the end of the block's last line, or on its own line below. `delete` removes the block with its id.
 * Scope `marker` is the id alone (replace renames it, delete removes it and keeps the text); `markerAndContent` is the
 * whole block (replace puts new text, id and all, in its place; prepend and append add a block beside it). A table's
 * rows can be sent as JSON (patch-table.ts).
 */
import { blockByKey, findBlocks, type Block } from "./markdown/blocks";
import { parseMarkdown } from "./markdown/structure";
import { contentPreexists, fail, type PatchInstruction, type PatchResult } from "./patch";
import { trimBlankEdges } from "./patch-levels";
import { patchTableText, readTable, tableRows } from "./patch-table";

const BLOCK_ID = /^[A-Za-z0-9-]+$/;

export function patchBlock(
	content: string,
	instruction: PatchInstruction,
	target: string,
	body: string,
	rows: unknown,
): PatchResult {
	const { operation } = instruction;
	const doc = parseMarkdown(content);
	// A repeated id's later occurrences have keys of their own (the document map lists them); the plain id is the first.
	const { id, occurrence, block } = blockByKey(findBlocks(doc), target.startsWith("^") ? target.slice(1) : target);
	if (!BLOCK_ID.test(id))
		return fail(
			"invalid-target",
			`"${target}" is not a block id: an id is letters, digits and dashes (send it without the ^); nothing was changed.`,
		);
	const text = body.replace(/(\r?\n)+$/, "").replace(/\r?\n/g, doc.eol);
	if (!block) {
		if (occurrence > 1)
			return fail(
				"target-not-found",
				`The note has no occurrence ${occurrence} of the block id ^${id}, so nothing was ` +
					`changed. Copy block keys from the note's document map.`,
			);
		if (!instruction.createTargetIfMissing || operation === "delete" || rows !== undefined) {
			const known = [...new Set(findBlocks(doc).map((found) => `^${found.id}`))].slice(0, 20);
			return fail(
				"target-not-found",
				`The note has no block ^${id}, so nothing was changed.` +
					(known.length > 0 ? ` Its block ids: ${known.join(" ")}.` : " It has no block ids.") +
					(" Send Create-Target-If-Missing: true (createTargetIfMissing in a JSON instruction) " +
						"to add it at the end of the note."),
			);
		}
		// A new paragraph at the end of the note, closed by the id.
		const gap =
			content === "" ? "" : content.endsWith("\n\n") ? "" : content.endsWith("\n") ? doc.eol : doc.eol + doc.eol;
		return { ok: true, content: `${content}${gap}${text} ^${id}${doc.eol}` };
	}
	const old = content.slice(block.bodyStart, block.bodyEnd);
	const preexists = contentPreexists(instruction, old, body);
	if (preexists) return preexists;
	const scope = instruction.scope ?? "content";
	if (scope === "marker")
		return operation === "delete" ? dropId(content, block) : renameId(content, block, id, text.trim());
	if (scope === "markerAndContent")
		return wholeBlock(content, block, operation, trimBlankEdges(body).replace(/\r?\n/g, doc.eol), doc.eol);
	if (operation === "delete") return { ok: true, content: content.slice(0, block.start) + content.slice(block.end) };
	const empty = block.bodyStart === block.bodyEnd;
	let next: string;
	if (rows !== undefined) {
		const table = readTable(old);
		if (!table)
			return fail(
				"invalid-target",
				`The block ^${id} is not a table, so rows cannot be added to it; send its new text ` +
					`as markdown instead. Nothing was changed.`,
			);
		const lines = tableRows(rows, table.columns);
		if (!Array.isArray(lines)) return lines;
		next = patchTableText(old, operation, table, lines, doc.eol);
	} else if (operation === "replace") {
		next = text;
	} else if (operation === "append") {
		next = empty ? text : old + doc.eol + text;
	} else {
		next = empty ? text : text + doc.eol + old;
	}
	// An id alone on its line needs the block right above it; an empty block gets its own line.
	if (empty && !block.inline && next !== "") next += doc.eol;
	return { ok: true, content: content.slice(0, block.bodyStart) + next + content.slice(block.bodyEnd) };
}

/** The id alone, renamed where it stands. */
function renameId(content: string, block: Block, id: string, wanted: string): PatchResult {
	const next = wanted.startsWith("^") ? wanted.slice(1) : wanted;
	if (!BLOCK_ID.test(next))
		return fail(
			"invalid-value",
			`"${wanted}" is not a block id: an id is letters, digits and dashes. Nothing was changed.`,
		);
	if (next !== id && findBlocks(parseMarkdown(content)).some((found) => found.id === next))
		return fail(
			"key-collision",
			`The note already has a block ^${next}; renaming ^${id} to it would make both ambiguous. Nothing was changed.`,
		);
	const span = content.slice(block.bodyEnd, block.end);
	const at = block.bodyEnd + span.indexOf(`^${id}`);
	return { ok: true, content: content.slice(0, at + 1) + next + content.slice(at + 1 + id.length) };
}

/** The id removed, the text kept (an id alone on its line goes with its line). */
function dropId(content: string, block: Block): PatchResult {
	if (!block.inline) return { ok: true, content: dropLoneId(content, block) };
	const line = content.slice(block.bodyEnd, block.end);
	const kept = line.replace(/^[ \t]+\^[A-Za-z0-9-]+[ \t]*/, "");
	return { ok: true, content: content.slice(0, block.bodyEnd) + kept + content.slice(block.end) };
}

function dropLoneId(content: string, block: Block): string {
	// The id's own line is the last line of [bodyEnd, end): everything from the id line's start to `end` goes.
	const span = content.slice(block.bodyEnd, block.end);
	const idLine = span.search(/[^\r\n]*\^[A-Za-z0-9-]+[ \t]*(\r?\n)?$/);
	return content.slice(0, block.bodyEnd + idLine) + content.slice(block.end);
}

function wholeBlock(
	content: string,
	block: Block,
	operation: PatchInstruction["operation"],
	text: string,
	eol: string,
): PatchResult {
	switch (operation) {
		case "delete":
			return { ok: true, content: content.slice(0, block.start) + content.slice(block.end) };
		case "replace":
			return {
				ok: true,
				content: content.slice(0, block.start) + (text === "" ? "" : text + eol) + content.slice(block.end),
			};
		case "prepend":
			return { ok: true, content: content.slice(0, block.start) + text + eol + eol + content.slice(block.start) };
		case "append": {
			const ended = block.end > 0 && content[block.end - 1] === "\n";
			return {
				ok: true,
				content: content.slice(0, block.end) + (ended ? "" : eol) + eol + text + eol + content.slice(block.end),
			};
		}
	}
}
