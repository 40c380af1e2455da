/**
 * The line diff: which lines of `a` and of `b` are changed, over interned integer ids (equal lines, equal ids).
 *
 * Myers' O(ND) algorithm, searching from both ends of each region until the two searches meet (linear space), then
 * splitting the region there; an explicit work stack instead of recursion, so no input can overflow the call stack.
 * Two things keep it bounded at any size while staying deterministic (the same inputs always give the same diff,
 * whatever the machine's load, because nothing depends on a clock):
 * - lines that occur on one side only can never match, so they are marked changed up front and left out of the
 *   search (git's xdiff does the same);
 * - past a cost of about √(lines), a region is split at the point its searches reached furthest instead of searching
 *   for the minimal split (xdiff's `mxcost` bound). Small and ordinary diffs never reach it and are minimal.
 * It yields (see steps.ts) every so often, so a huge diff can run in slices.
 */
import type { Steps } from "../steps";

/** `a[i]` / `b[j]` is 1 when that line is not part of the matched (equal) lines. */
export interface ChangeMarks {
	a: Uint8Array;
	b: Uint8Array;
}

/** git's floor for the cost bound: a diff of fewer than this many changes is always minimal. */
const MIN_COST_LIMIT = 256;
/** Roughly how many comparisons run between two yields. */
const WORK_PER_STEP = 100_000;

export function* markChanges(a: Int32Array, b: Int32Array, idCount: number): Steps<ChangeMarks> {
	const marks: ChangeMarks = { a: new Uint8Array(a.length), b: new Uint8Array(b.length) };
	const inA = presence(a, idCount);
	const inB = presence(b, idCount);
	const keptA = keepMatchable(a, inB, marks.a);
	const keptB = keepMatchable(b, inA, marks.b);
	yield;
	const search = new Search(keptA.ids, keptB.ids);
	yield* search.run();
	for (let i = 0; i < keptA.ids.length; i++) if (search.changedA[i]) marks.a[keptA.at[i]!] = 1;
	for (let j = 0; j < keptB.ids.length; j++) if (search.changedB[j]) marks.b[keptB.at[j]!] = 1;
	return marks;
}

function presence(ids: Int32Array, idCount: number): Uint8Array {
	const seen = new Uint8Array(idCount);
	for (let i = 0; i < ids.length; i++) seen[ids[i]!] = 1;
	return seen;
}

/** The lines whose id occurs on the other side, with their positions; the others are marked changed at once. */
function keepMatchable(
	ids: Int32Array,
	onOtherSide: Uint8Array,
	changed: Uint8Array,
): { ids: Int32Array; at: Int32Array } {
	let count = 0;
	for (let i = 0; i < ids.length; i++) if (onOtherSide[ids[i]!]) count++;
	const kept = new Int32Array(count);
	const at = new Int32Array(count);
	let k = 0;
	for (let i = 0; i < ids.length; i++) {
		if (onOtherSide[ids[i]!]) {
			kept[k] = ids[i]!;
			at[k++] = i;
		} else changed[i] = 1;
	}
	return { ids: kept, at };
}

/** A region still to diff: a[aLo, aHi) against b[bLo, bHi); `minimal` forbids the cost bound (see split). */
interface Region {
	aLo: number;
	aHi: number;
	bLo: number;
	bHi: number;
	minimal: boolean;
}

interface SplitPoint {
	x: number;
	y: number;
	minimalLo: boolean;
	minimalHi: boolean;
}

class Search {
	readonly changedA: Uint8Array;
	readonly changedB: Uint8Array;
	/** Furthest x reached on each diagonal k = x - y, forward and backward; index k + offset. */
	private readonly forward: Int32Array;
	private readonly backward: Int32Array;
	private readonly offset: number;
	private readonly costLimit: number;
	private work = 0;

	constructor(
		private readonly a: Int32Array,
		private readonly b: Int32Array,
	) {
		this.changedA = new Uint8Array(a.length);
		this.changedB = new Uint8Array(b.length);
		const diagonals = a.length + b.length + 3;
		this.forward = new Int32Array(diagonals);
		this.backward = new Int32Array(diagonals);
		this.offset = b.length + 1;
		this.costLimit = Math.max(MIN_COST_LIMIT, Math.floor(Math.sqrt(diagonals)));
	}

	*run(): Steps<void> {
		const pending: Region[] = [{ aLo: 0, aHi: this.a.length, bLo: 0, bHi: this.b.length, minimal: false }];
		for (let region = pending.pop(); region !== undefined; region = pending.pop()) {
			let { aLo, aHi, bLo, bHi } = region;
			const { a, b } = this;
			while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
				aLo++;
				bLo++;
			}
			while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) {
				aHi--;
				bHi--;
			}
			this.work += aHi - aLo + (bHi - bLo);
			if (aLo === aHi) this.changedB.fill(1, bLo, bHi);
			else if (bLo === bHi) this.changedA.fill(1, aLo, aHi);
			else {
				const split = yield* this.split(aLo, aHi, bLo, bHi, region.minimal);
				pending.push({ aLo: split.x, aHi, bLo: split.y, bHi, minimal: split.minimalHi });
				pending.push({ aLo, aHi: split.x, bLo, bHi: split.y, minimal: split.minimalLo });
			}
			if (this.work >= WORK_PER_STEP) {
				this.work = 0;
				yield;
			}
		}
	}

	/**
	 * Where a region's shortest edit path crosses its middle: forward from (aLo, bLo) and backward from (aHi, bHi),
	 * one edit at a time, until a forward and a backward path meet on a diagonal. Past the cost bound (unless the
	 * region must be minimal), the point that got furthest is taken instead; the part the search already covered is
	 * then diffed minimally (it costs at most what was spent), the rest may meet the bound again.
	 */
	private *split(aLo: number, aHi: number, bLo: number, bHi: number, minimal: boolean): Steps<SplitPoint> {
		const { a, b, forward: kf, backward: kb, offset } = this;
		const dMin = aLo - bHi;
		const dMax = aHi - bLo;
		const fMid = aLo - bLo;
		const bMid = aHi - bHi;
		const odd = ((fMid - bMid) & 1) !== 0;
		let fMin = fMid;
		let fMax = fMid;
		let bMin = bMid;
		let bMax = bMid;
		kf[fMid + offset] = aLo;
		kb[bMid + offset] = aHi;
		for (let cost = 1; ; cost++) {
			// One more edit forward. Diagonals outside the region get a sentinel that no path prefers.
			if (fMin > dMin) kf[--fMin - 1 + offset] = -1;
			else ++fMin;
			if (fMax < dMax) kf[++fMax + 1 + offset] = -1;
			else --fMax;
			for (let d = fMax; d >= fMin; d -= 2) {
				const fromAbove = kf[d - 1 + offset]!;
				const fromBelow = kf[d + 1 + offset]!;
				let x = fromAbove >= fromBelow ? fromAbove + 1 : fromBelow;
				let y = x - d;
				const start = x;
				while (x < aHi && y < bHi && a[x] === b[y]) {
					x++;
					y++;
				}
				this.work += x - start + 1;
				kf[d + offset] = x;
				if (odd && bMin <= d && d <= bMax && kb[d + offset]! <= x) return { x, y, minimalLo: true, minimalHi: true };
			}
			// One more edit backward.
			if (bMin > dMin) kb[--bMin - 1 + offset] = 0x7fffffff;
			else ++bMin;
			if (bMax < dMax) kb[++bMax + 1 + offset] = 0x7fffffff;
			else --bMax;
			for (let d = bMax; d >= bMin; d -= 2) {
				const fromAbove = kb[d - 1 + offset]!;
				const fromBelow = kb[d + 1 + offset]!;
				let x = fromAbove < fromBelow ? fromAbove : fromBelow - 1;
				let y = x - d;
				const start = x;
				while (x > aLo && y > bLo && a[x - 1] === b[y - 1]) {
					x--;
					y--;
				}
				this.work += start - x + 1;
				kb[d + offset] = x;
				if (!odd && fMin <= d && d <= fMax && x <= kf[d + offset]!) return { x, y, minimalLo: true, minimalHi: true };
			}
			if (this.work >= WORK_PER_STEP) {
				this.work = 0;
				yield;
			}
			if (!minimal && cost >= this.costLimit) return this.furthest(aLo, aHi, bLo, bHi, fMin, fMax, bMin, bMax);
		}
	}

	/** The cost bound was reached: split where the forward or the backward search made the most progress. */
	private furthest(
		aLo: number,
		aHi: number,
		bLo: number,
		bHi: number,
		fMin: number,
		fMax: number,
		bMin: number,
		bMax: number,
	): SplitPoint {
		const { forward: kf, backward: kb, offset } = this;
		let fBest = -1;
		let fBestX = aLo;
		for (let d = fMax; d >= fMin; d -= 2) {
			let x = Math.min(kf[d + offset]!, aHi);
			let y = x - d;
			if (y > bHi) {
				x = bHi + d;
				y = bHi;
			}
			if (x + y > fBest) {
				fBest = x + y;
				fBestX = x;
			}
		}
		let bBest = 0x7fffffff;
		let bBestX = aHi;
		for (let d = bMax; d >= bMin; d -= 2) {
			let x = Math.max(aLo, kb[d + offset]!);
			let y = x - d;
			if (y < bLo) {
				x = bLo + d;
				y = bLo;
			}
			if (x + y < bBest) {
				bBest = x + y;
				bBestX = x;
			}
		}
		if (aHi + bHi - bBest < fBest - (aLo + bLo))
			return { x: fBestX, y: fBest - fBestX, minimalLo: true, minimalHi: false };
		return { x: bBestX, y: bBest - bBestX, minimalLo: false, minimalHi: true };
	}
}
