/**
 * Sets of UTF-16 code units for the search's regular expressions (which, like JavaScript's without the `u` flag,
 * match code units): sorted, non-overlapping inclusive ranges, with a table for ASCII so the common case is one
 * lookup.
 */

const MAX_UNIT = 0xffff;

export class CharSet {
	private readonly ascii = new Uint8Array(128);

	/** `ranges`: [low, high] pairs, inclusive, sorted and merged (see `charSet`). */
	private constructor(private readonly ranges: readonly number[]) {
		for (let index = 0; index < ranges.length; index += 2) {
			for (let unit = ranges[index]!; unit <= Math.min(ranges[index + 1]!, 127); unit++) this.ascii[unit] = 1;
		}
	}

	static of(pairs: readonly (readonly [number, number])[]): CharSet {
		return new CharSet(merged(pairs));
	}

	has(unit: number): boolean {
		if (unit < 128) return this.ascii[unit] === 1;
		const { ranges } = this;
		let low = 0;
		let high = ranges.length / 2 - 1;
		while (low <= high) {
			const middle = (low + high) >> 1;
			if (unit < ranges[middle * 2]!) high = middle - 1;
			else if (unit > ranges[middle * 2 + 1]!) low = middle + 1;
			else return true;
		}
		return false;
	}

	/** Every code unit this set does not hold. */
	complement(): CharSet {
		const out: [number, number][] = [];
		let next = 0;
		for (let index = 0; index < this.ranges.length; index += 2) {
			if (this.ranges[index]! > next) out.push([next, this.ranges[index]! - 1]);
			next = this.ranges[index + 1]! + 1;
		}
		if (next <= MAX_UNIT) out.push([next, MAX_UNIT]);
		return CharSet.of(out);
	}

	union(other: CharSet): CharSet {
		return CharSet.of([...pairsOf(this.ranges), ...pairsOf(other.ranges)]);
	}

	pairs(): [number, number][] {
		return pairsOf(this.ranges);
	}
}

function pairsOf(ranges: readonly number[]): [number, number][] {
	const out: [number, number][] = [];
	for (let index = 0; index < ranges.length; index += 2) out.push([ranges[index]!, ranges[index + 1]!]);
	return out;
}

function merged(pairs: readonly (readonly [number, number])[]): number[] {
	const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
	const out: number[] = [];
	for (const [low, high] of sorted) {
		if (out.length > 0 && low <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, high);
		else out.push(low, high);
	}
	return out;
}

const unit = (char: string) => char.charCodeAt(0);

/** `\d` */
export const DIGITS = CharSet.of([[unit("0"), unit("9")]]);
/** `\w`, also what `\b` calls a word character. */
export const WORD = CharSet.of([
	[unit("a"), unit("z")],
	[unit("A"), unit("Z")],
	[unit("0"), unit("9")],
	[unit("_"), unit("_")],
]);
/** `\s`: JavaScript's white space and line terminators. */
export const SPACE = CharSet.of([
	[0x09, 0x0d],
	[0x20, 0x20],
	[0xa0, 0xa0],
	[0x1680, 0x1680],
	[0x2000, 0x200a],
	[0x2028, 0x2029],
	[0x202f, 0x202f],
	[0x205f, 0x205f],
	[0x3000, 0x3000],
	[0xfeff, 0xfeff],
]);
/** `.`: anything but a line terminator. */
export const DOT = CharSet.of([
	[0x0a, 0x0a],
	[0x0d, 0x0d],
	[0x2028, 0x2029],
]).complement();

export function single(code: number): CharSet {
	return CharSet.of([[code, code]]);
}
