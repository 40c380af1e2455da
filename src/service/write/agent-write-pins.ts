/**
 * The revisions undo needs for the latest agent writes (what each wrote and what it replaced), kept up to date as
 * writes arrive. The base store asks about pins on every eviction, and once it is full every write evicts: finding
 * the latest writes by scanning the whole history each time made every write cost as much as the history is long.
 *
 * It may pin a little more than a fresh scan would (an entry the history has since trimmed stays pinned until
 * `limit` newer writes push it out): pins only order evictions, so that costs nothing but order, never a base.
 */
export class AgentWritePins {
	/** [revision, replaced] of each write, oldest first; `head` is where the oldest still counted is. */
	private readonly writes: (readonly [string, string | undefined])[] = [];
	private head = 0;
	/** How many counted writes name each revision. */
	private readonly counts = new Map<string, number>();

	/** `newestFirst`: the latest agent writes as the history holds them now (at most `limit` are kept). */
	constructor(
		readonly limit: number,
		newestFirst: readonly { revision: string; replaced?: string }[],
	) {
		for (let i = Math.min(newestFirst.length, limit) - 1; i >= 0; i--)
			this.add(newestFirst[i]!.revision, newestFirst[i]!.replaced);
	}

	/** An agent write (or delete) that just landed. */
	add(revision: string, replaced: string | undefined): void {
		if (this.limit <= 0) return;
		this.writes.push([revision, replaced]);
		this.count(revision, 1);
		if (replaced !== undefined) this.count(replaced, 1);
		while (this.writes.length - this.head > this.limit) {
			const [oldRevision, oldReplaced] = this.writes[this.head++]!;
			this.count(oldRevision, -1);
			if (oldReplaced !== undefined) this.count(oldReplaced, -1);
		}
		// Drop what was pushed out once it is most of the array, so the array stays within twice the limit.
		if (this.head > this.limit) {
			this.writes.splice(0, this.head);
			this.head = 0;
		}
	}

	has(revision: string): boolean {
		return this.counts.has(revision);
	}

	private count(revision: string, by: number): void {
		const next = (this.counts.get(revision) ?? 0) + by;
		if (next > 0) this.counts.set(revision, next);
		else this.counts.delete(revision);
	}
}
