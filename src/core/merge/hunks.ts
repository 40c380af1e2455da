/** Turns a line diff into hunks: base ranges one side replaced, with the lines that replaced them. */
import type { LineOp } from "../diff/line-diff";
import { Changes, compact } from "./compact";

export type Side = "mine" | "theirs";

/** Base lines [baseStart, baseEnd) became the side's lines [sideStart, sideEnd); either range may be empty. */
export interface Hunk {
	side: Side;
	baseStart: number;
	baseEnd: number;
	sideStart: number;
	sideEnd: number;
}

/**
 * Hunks of a base→side diff, placed where git would place them. Unchanged lines separate hunks, so one side's
 * hunks never touch each other.
 */
export function toHunks(ops: readonly LineOp[], base: readonly string[], lines: readonly string[], side: Side): Hunk[] {
	const before = new Changes(base);
	const after = new Changes(lines);
	let i = 0;
	let j = 0;
	for (const op of ops) {
		const n = op.lines.length;
		if (op.kind === "delete") for (let k = 0; k < n; k++) before.set(i++, true);
		else if (op.kind === "insert") for (let k = 0; k < n; k++) after.set(j++, true);
		else {
			i += n;
			j += n;
		}
	}
	// git compacts both files of a diff, base first (xdl_merge does the same before merging).
	compact(before, after);
	compact(after, before);

	const hunks: Hunk[] = [];
	i = 0;
	j = 0;
	while (i < base.length || j < lines.length) {
		if (!before.changed(i) && !after.changed(j)) {
			i++;
			j++;
			continue;
		}
		const hunk: Hunk = { side, baseStart: i, baseEnd: i, sideStart: j, sideEnd: j };
		while (before.changed(i)) i++;
		while (after.changed(j)) j++;
		hunk.baseEnd = i;
		hunk.sideEnd = j;
		hunks.push(hunk);
	}
	return hunks;
}
