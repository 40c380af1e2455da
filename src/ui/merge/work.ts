/** The person's work on a merge beyond the engine's: undone changes, and snapshots of choices, undos and typing. */
import type { Block, StableBlock } from "./blocks";
import type { Choice } from "./block-text";
import type { StableUndo } from "./blocks";

export interface Snapshot {
	readonly blocks: readonly Block[];
	readonly work: readonly { edited: string | null; choice: Choice | null; undo: StableUndo | null }[];
}

export function takeSnapshot(blocks: readonly Block[]): Snapshot {
	return {
		blocks,
		work: blocks.map((block) => ({
			edited: block.edited,
			choice: block.kind === "conflict" ? block.choice : null,
			undo: block.kind === "stable" ? block.undo : null,
		})),
	};
}

/** False (and nothing changes) when the snapshot belongs to other blocks (a rebase replaced them). */
export function restoreSnapshot(blocks: Block[], snapshot: Snapshot): boolean {
	if (snapshot.blocks !== blocks) return false;
	blocks.forEach((block, index) => {
		const work = snapshot.work[index];
		block.edited = work?.edited ?? null;
		if (block.kind === "conflict") block.choice = work?.choice ?? null;
		else block.undo = work?.undo ?? null;
	});
	return true;
}

/** A stable block's text, or what the person undid its change to (a side's block falls back to base when absent). */
export function undoneText(block: Readonly<StableBlock>): string {
	switch (block.undo) {
		case null:
			return block.auto;
		case "base":
			return block.base;
		case "mine":
			return block.ruleMine ?? block.base;
		case "theirs":
			return block.ruleTheirs ?? block.base;
	}
}
