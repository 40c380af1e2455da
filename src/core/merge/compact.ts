/**
 * Canonical placement of diff hunks, ported from git's xdl_change_compact (xdiff/xdiffi.c, without the indent
 * heuristic, which git merge-file does not enable).
 *
 * A hunk inside repeated lines can sit in several places (inserting "}" before or after an existing "}" gives
 * the same text). Where it sits decides whether it touches the other side's hunk, so to agree with git on what
 * conflicts we slide each group of changed lines the way git does: as far down as possible, unless it can line
 * up with a change in the other file.
 */

/** Changed-line flags with a 0 sentinel on both ends: flags[i + 1] is line i. */
export class Changes {
	readonly flags: Uint8Array;

	constructor(readonly lines: readonly string[]) {
		this.flags = new Uint8Array(lines.length + 2);
	}

	get length(): number {
		return this.lines.length;
	}

	changed(i: number): boolean {
		return this.flags[i + 1] === 1;
	}

	set(i: number, value: boolean): void {
		this.flags[i + 1] = value ? 1 : 0;
	}
}

/** A run of changed lines [start, end); empty when start === end (a position between unchanged lines). */
interface Group {
	start: number;
	end: number;
}

function firstGroup(file: Changes): Group {
	let end = 0;
	while (file.changed(end)) end++;
	return { start: 0, end };
}

function nextGroup(file: Changes, g: Group): boolean {
	if (g.end === file.length) return false;
	g.start = g.end + 1;
	g.end = g.start;
	while (file.changed(g.end)) g.end++;
	return true;
}

function previousGroup(file: Changes, g: Group): boolean {
	if (g.start === 0) return false;
	g.end = g.start - 1;
	g.start = g.end;
	while (file.changed(g.start - 1)) g.start--;
	return true;
}

function slideDown(file: Changes, g: Group): boolean {
	if (g.end >= file.length || file.lines[g.start] !== file.lines[g.end]) return false;
	file.set(g.start++, false);
	file.set(g.end++, true);
	while (file.changed(g.end)) g.end++;
	return true;
}

function slideUp(file: Changes, g: Group): boolean {
	if (g.start <= 0 || file.lines[g.start - 1] !== file.lines[g.end - 1]) return false;
	file.set(--g.start, true);
	file.set(--g.end, false);
	while (file.changed(g.start - 1)) g.start--;
	return true;
}

/** Compacts `file`'s changes; `other` is the file it was diffed against (its groups pair up with ours in order). */
export function compact(file: Changes, other: Changes): void {
	const g = firstGroup(file);
	const go = firstGroup(other);
	for (;;) {
		if (g.end !== g.start) {
			let earliestEnd: number;
			let endMatchingOther: number;
			let size: number;
			do {
				size = g.end - g.start;
				endMatchingOther = -1;
				while (slideUp(file, g)) if (!previousGroup(other, go)) throw new Error("compact: group sync broken (up)");
				earliestEnd = g.end;
				if (go.end > go.start) endMatchingOther = g.end;
				while (slideDown(file, g)) {
					if (!nextGroup(other, go)) throw new Error("compact: group sync broken (down)");
					if (go.end > go.start) endMatchingOther = g.end;
				}
			} while (size !== g.end - g.start);
			// Now as low as it goes; move back up only to line up with a change in the other file.
			if (g.end !== earliestEnd && endMatchingOther !== -1) {
				while (go.end === go.start) {
					if (!slideUp(file, g)) throw new Error("compact: match disappeared");
					if (!previousGroup(other, go)) throw new Error("compact: group sync broken (match)");
				}
			}
		}
		if (!nextGroup(file, g)) break;
		if (!nextGroup(other, go)) throw new Error("compact: group sync broken (next)");
	}
}
