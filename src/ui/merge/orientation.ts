/**
 * Keeps the result's line numbers and the overview in step with the merge state. Typing that changes neither a
 * block's line count nor its mark costs nothing here, so a long note with many changes stays quick to type in.
 */
import { lineStarts, newlines, type LineStarts } from "./lines";
import type { MergeState } from "./merge-state";
import type { Overview } from "./overview";

export interface Renumberable {
	renumber(resultLine: number): void;
}

const FIRST: LineStarts = { base: 1, mine: 1, theirs: 1, result: 1 };

export class Orientation {
	private starts: LineStarts[] = [];
	private lengths: number[] = [];
	private kinds: (string | null)[] = [];

	constructor(
		private readonly state: MergeState,
		private readonly overview: Overview,
		private readonly rows: () => readonly (Renumberable | null)[],
	) {}

	/** New blocks (opening, a re-merge): everything is computed afresh; rows are rendered from `startsOf`. */
	reset(): void {
		this.starts = lineStarts(this.state);
		this.remember();
		this.overview.update(this.starts);
	}

	startsOf(index: number): LineStarts {
		return this.starts[index] ?? FIRST;
	}

	/** After block `index` changed (null: any number of blocks did). */
	changed(index: number | null): void {
		if (index !== null && this.lengths[index] === this.lengthOf(index) && this.kinds[index] === this.markOf(index))
			return;
		const starts = lineStarts(this.state);
		const rows = this.rows();
		starts.forEach((start, at) => {
			if (start.result !== this.starts[at]?.result) rows[at]?.renumber(start.result);
		});
		this.starts = starts;
		this.remember();
		this.overview.update(starts);
	}

	private remember(): void {
		this.lengths = this.state.blockList.map((_, index) => this.lengthOf(index));
		this.kinds = this.state.blockList.map((_, index) => this.markOf(index));
	}

	/** What the block's overview mark says: a conflict's state, or whether a change was undone (and to what). */
	private markOf(index: number): string | null {
		const block = this.state.blockList[index];
		if (block === undefined) return null;
		return block.kind === "conflict" ? this.state.status(block) : block.undo;
	}

	private lengthOf(index: number): number {
		return newlines(this.state.shownText(index));
	}
}
