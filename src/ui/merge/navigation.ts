/**
 * Conflict navigation: which unresolved conflict "next" and "previous" go to (the nearest one past the current,
 * wrapping around), and the cursor that remembers the current one and moves focus to a row.
 */
import type { RowHandle } from "./block-row";
import type { MergeState } from "./merge-state";

/** The id to visit from conflict `current` (-1: from the top), or null when nothing is unresolved. */
export function unresolvedFrom(state: MergeState, current: number, direction: 1 | -1): number | null {
	const open = state.blockList.flatMap((block) =>
		block.kind === "conflict" && state.status(block) === "unresolved" ? [block.id] : [],
	);
	const ahead = direction === 1 ? open.find((id) => id > current) : open.filter((id) => id < current).pop();
	return ahead ?? (direction === 1 ? open[0] : open[open.length - 1]) ?? null;
}

/** Where navigation continues from, over the rows the view has rendered now (null: a hidden block). */
export class ConflictCursor {
	/** The conflict navigation continues from (the last one focused), -1 before any. */
	private current = -1;

	constructor(
		private readonly state: MergeState,
		private readonly rows: () => readonly (RowHandle | null)[],
		/** Where focus goes when no conflict is left unresolved. */
		private readonly noneLeft: () => void,
	) {}

	/** A conflict row took focus by itself (a click, Tab): navigation continues from there. */
	visited(id: number): void {
		this.current = id;
	}

	step(direction: 1 | -1): void {
		const target = unresolvedFrom(this.state, this.current, direction);
		if (target !== null) this.focusConflict(target);
	}

	focusFirst(): void {
		const first = unresolvedFrom(this.state, -1, 1);
		if (first === null) this.noneLeft();
		else this.focusConflict(first);
	}

	/** From the overview: a conflict is focused as navigation does; a change, its text box. */
	jumpTo(index: number): void {
		const block = this.state.blockList[index];
		if (block?.kind === "conflict") return this.focusConflict(block.id);
		const row = this.rows()[index];
		row?.element.scrollIntoView({ block: "center" });
		row?.focusTarget.focus({ preventScroll: true });
	}

	private focusConflict(id: number): void {
		this.current = id;
		this.rows()[this.state.conflictIndex(id)]?.focusTarget.focus();
	}
}
