/** Carries choices, typed text and expanded sections from an old merge to a re-merge of a newer note. */
import type { Block } from "./blocks";

export interface RebaseReport {
	/** Choices and typed texts found again in the new merge. */
	kept: number;
	/** Choices and typed texts whose block changed (the note changed there), so they no longer apply. */
	dropped: number;
}

/**
 * A block is "still the same" when its texts are identical: a conflict with the same base, mine and theirs, a
 * stable block with the same origin, base and merged text. Equal blocks pair up in document order.
 */
export function carryOver(oldBlocks: readonly Block[], newBlocks: Block[]): RebaseReport {
	const waiting = new Map<string, Block[]>();
	for (const block of oldBlocks) {
		const key = keyOf(block);
		const queue = waiting.get(key);
		if (queue) queue.push(block);
		else waiting.set(key, [block]);
	}
	let kept = 0;
	for (const block of newBlocks) {
		const old = waiting.get(keyOf(block))?.shift();
		if (!old) continue;
		if (hasWork(old)) kept++;
		block.edited = old.edited;
		if (block.kind === "conflict" && old.kind === "conflict") block.choice = old.choice;
		if (block.kind === "stable" && old.kind === "stable") {
			block.expanded = old.expanded;
			block.undo = old.undo;
		}
	}
	let dropped = 0;
	for (const queue of waiting.values()) dropped += queue.filter(hasWork).length;
	return { kept, dropped };
}

function hasWork(block: Block): boolean {
	return block.edited !== null || (block.kind === "conflict" ? block.choice !== null : block.undo !== null);
}

/** Length-prefixed, so no text can forge another key. */
function keyOf(block: Block): string {
	const parts =
		block.kind === "conflict"
			? ["c", block.base, block.mine, block.theirs]
			: ["s" + block.origin, block.base, block.auto];
	return parts.map((part) => `${part.length}:${part}`).join("");
}
