/** How much of the agent's work a merge result keeps, for the conflict record: all of it, some, or none. */
import { choiceText } from "./block-text";
import type { Block, ConflictBlock } from "./blocks";

export type AgentTaken = "whole" | "partial" | "none";

/**
 * "whole": every agent change is in the result (conflicts taken as agent's or both, agent blocks untouched);
 * "none": no agent change survived (conflicts kept as mine or base, agent-only blocks edited away or absent);
 * anything else, an unresolved conflict included, is "partial".
 */
export function agentTaken(blocks: readonly Readonly<Block>[], eol: string): AgentTaken {
	let changes = 0;
	let whole = true;
	let none = true;
	for (const block of blocks) {
		if (block.kind === "stable") {
			if (block.hidden || (block.origin !== "theirs" && block.origin !== "both")) continue;
			changes++;
			if (block.edited !== null) whole = false;
			else if (block.origin === "theirs") none = false;
			continue;
		}
		changes++;
		const taken = conflictShare(block, eol);
		if (taken !== "whole") whole = false;
		if (taken !== "none") none = false;
	}
	// A change both sides made counts for "whole" but, being the person's own too, not against "none";
	// when both rules hold (the agent only made changes the note already has), "whole" is the truer answer.
	if (changes === 0) return "none";
	return whole ? "whole" : none ? "none" : "partial";
}

function conflictShare(block: Readonly<ConflictBlock>, eol: string): AgentTaken {
	if (block.edited === null) {
		if (block.choice === null) return "partial";
		return block.choice === "mine" || block.choice === "base" ? "none" : "whole";
	}
	// Typed text counts by what it turned out to be.
	const agentTexts = (["theirs", "mine-theirs", "theirs-mine"] as const).map((choice) => choiceText(block, choice, eol));
	if (agentTexts.includes(block.edited)) return "whole";
	return block.edited === block.mine || block.edited === block.base ? "none" : "partial";
}
