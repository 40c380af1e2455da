/**
 * The fence rule's spans: the base code blocks both sides changed inside, each one conflict unless both made the same
 * change. A change to the opening fence's info string alone (```rust → ```rust,ignore) is not a change inside.
 */
import type { SideLines } from "./group";
import type { Hunk } from "./hunks";
import { sameFenceOpening, type BaseStructure } from "./markdown";

/**
 * A block's span of base lines. One that leaves out an opening fence whose info string alone changed (`shifted`)
 * starts on the block's first inner line, where an insertion is inside the block.
 */
export interface FenceSpan {
	hunk: null;
	start: number;
	end: number;
	shifted?: boolean;
}

/** Spans of the base code blocks that both sides changed; an unclosed block runs past the end so end insertions join. */
export function fenceSpans(mine: Hunk[], theirs: Hunk[], lines: SideLines, structure: BaseStructure): FenceSpan[] {
	if (structure.fences.length === 0) return [];
	const n = lines.base.length;
	const mineUse = fenceUse(mine, lines, structure);
	const theirsUse = fenceUse(theirs, lines, structure);
	const spans: FenceSpan[] = [];
	for (const index of theirsUse.inside) {
		const fence = structure.fences[index];
		if (!fence || !mineUse.inside.has(index)) continue;
		const end = fence.closed ? fence.end : n + 1;
		// Keep an info-string change out of the block's span unless some other change takes in the opening line.
		const shifted =
			(mineUse.infoOnly.has(index) || theirsUse.infoOnly.has(index)) &&
			!mineUse.opener.has(index) &&
			!theirsUse.opener.has(index);
		spans.push(
			shifted ? { hunk: null, start: fence.start + 1, end, shifted } : { hunk: null, start: fence.start, end },
		);
	}
	return spans;
}

interface FenceUse {
	/** Blocks the side changed inside. */
	inside: Set<number>;
	/** Blocks whose opening line the side changed in some other way than its info string. */
	opener: Set<number>;
	/** Blocks whose opening fence's info string alone the side changed. */
	infoOnly: Set<number>;
}

function fenceUse(hunks: Hunk[], lines: SideLines, structure: BaseStructure): FenceUse {
	const use: FenceUse = { inside: new Set(), opener: new Set(), infoOnly: new Set() };
	const n = lines.base.length;
	for (const hunk of hunks) {
		const info = infoStringChange(hunk, lines, structure);
		if (info >= 0) use.infoOnly.add(info);
		for (let i = hunk.baseStart; i < hunk.baseEnd; i++) {
			const fence = structure.fenceOf[i] ?? -1;
			if (fence < 0 || fence === info) continue;
			use.inside.add(fence);
			if (structure.fences[fence]?.start === i) use.opener.add(fence);
		}
		if (hunk.baseStart !== hunk.baseEnd || hunk.baseStart === 0) continue;
		// An insertion is inside a block when the lines on both sides of it are in that block (or it ends an unclosed one).
		const at = hunk.baseStart;
		const above = structure.fenceOf[at - 1] ?? -1;
		if (above < 0) continue;
		const inside = at < n ? structure.fenceOf[at] === above : structure.fences[above]?.closed === false;
		if (inside) use.inside.add(above);
	}
	return use;
}

/**
 * The block whose opening fence this hunk changes only in its info string, else -1: the hunk ends on the opening
 * line and its new text ends with the same opening fence (it may also change lines above the block).
 */
function infoStringChange(hunk: Hunk, lines: SideLines, structure: BaseStructure): number {
	if (hunk.baseStart === hunk.baseEnd || hunk.sideStart === hunk.sideEnd) return -1;
	const opener = hunk.baseEnd - 1;
	const fence = structure.fenceOf[opener] ?? -1;
	if (fence < 0 || structure.fences[fence]?.start !== opener) return -1;
	return sameFenceOpening(lines.base[opener] ?? "", lines[hunk.side][hunk.sideEnd - 1] ?? "") ? fence : -1;
}
