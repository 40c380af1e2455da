/** Serializes async work per key (per note path), so two writes to one note never interleave in this process. */
export class KeyedMutex {
	private readonly tails = new Map<string, Promise<unknown>>();

	run<T>(key: string, work: () => Promise<T>): Promise<T> {
		const previous = this.tails.get(key) ?? Promise.resolve();
		const result = previous.then(work, work);
		const tail = result.then(() => undefined, () => undefined);
		this.tails.set(key, tail);
		void tail.then(() => {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		});
		return result;
	}
}
