/** Serializes async work per key (per note path), so two writes to one note never interleave in this process. */
export class KeyedMutex {
	private readonly tails = new Map<string, Promise<unknown>>();

	run<T>(key: string, work: () => Promise<T>): Promise<T> {
		const previous = this.tails.get(key) ?? Promise.resolve();
		const result = previous.then(work, work);
		const tail = result.then(
			() => undefined,
			() => undefined,
		);
		this.tails.set(key, tail);
		void tail.then(() => {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		});
		return result;
	}

	/**
	 * Runs `work` holding every one of `keys` (a move holds its note and its destination). They are taken in one
	 * order (sorted) by every caller, so two such runs never wait on each other in a circle; a run of one key is `run`.
	 */
	runAll<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
		const sorted = [...new Set(keys)].sort();
		const hold = (index: number): Promise<T> =>
			index === sorted.length ? work() : this.run(sorted[index]!, () => hold(index + 1));
		return hold(0);
	}
}
