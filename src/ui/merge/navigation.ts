/** Which unresolved conflict "next" and "previous" go to: the nearest one past the current, wrapping around. */
import type { MergeState } from "./merge-state";

/** The id to visit from conflict `current` (-1: from the top), or null when nothing is unresolved. */
export function unresolvedFrom(state: MergeState, current: number, direction: 1 | -1): number | null {
	const open = state.blockList.flatMap((block) =>
		block.kind === "conflict" && state.status(block) === "unresolved" ? [block.id] : [],
	);
	const ahead = direction === 1 ? open.find((id) => id > current) : open.filter((id) => id < current).pop();
	return ahead ?? (direction === 1 ? open[0] : open[open.length - 1]) ?? null;
}
