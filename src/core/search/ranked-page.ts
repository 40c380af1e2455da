/**
 * One page of search hits in rank order, collected while the search runs: only the hits that can still be on the
 * page are kept (at most `limit`, at most `maxBytes` of them), so a search over a vault of notes that all match
 * holds one page in memory, never the vault. A page starts after the rank key of the last hit of the one before
 * (a cursor), never at an offset, so hits found between pages neither repeat nor shift what follows.
 */

export interface PageRequest<K> {
	/** The rank key of the last hit already served; null for the first page. */
	after: K | null;
	limit: number;
	maxBytes: number;
}

export interface Page<T, K> {
	items: T[];
	/** The rank key to pass as `after` for the next page; null when this page holds the last hit. */
	next: K | null;
	/** Hits found in all, on this page, before it and after it. */
	total: number;
}

export class RankedPage<T, K> {
	private readonly kept: { item: T; key: K; bytes: number }[] = [];
	private bytes = 0;
	private total = 0;
	/** The best-ranked key dropped so far: nothing ranked at or after it can be on this page any more. */
	private cutoff: K | null = null;

	constructor(
		private readonly request: PageRequest<K>,
		private readonly compare: (a: K, b: K) => number,
	) {}

	/** A hit, its rank key and its size in an answer. */
	offer(item: T, key: K, bytes: number): void {
		this.total++;
		if (this.request.after !== null && this.compare(key, this.request.after) <= 0) return;
		if (this.cutoff !== null && this.compare(key, this.cutoff) >= 0) return;
		let low = 0;
		let high = this.kept.length;
		while (low < high) {
			const middle = (low + high) >> 1;
			if (this.compare(this.kept[middle]!.key, key) <= 0) low = middle + 1;
			else high = middle;
		}
		this.kept.splice(low, 0, { item, key, bytes });
		this.bytes += bytes;
		while (this.kept.length > this.request.limit || (this.bytes > this.request.maxBytes && this.kept.length > 1)) {
			const dropped = this.kept.pop()!;
			this.bytes -= dropped.bytes;
			if (this.cutoff === null || this.compare(dropped.key, this.cutoff) < 0) this.cutoff = dropped.key;
		}
	}

	page(): Page<T, K> {
		const last = this.kept[this.kept.length - 1];
		return {
			items: this.kept.map((entry) => entry.item),
			next: this.cutoff !== null && last ? last.key : null,
			total: this.total,
		};
	}
}
