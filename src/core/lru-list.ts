/**
 * Entries in least-recently-used order, with touch, removal and "the oldest" in constant time. A Map's insertion
 * order can keep the same order, but each touch is a delete and a set, and finding the oldest entry walks from the
 * front over every entry deleted since V8 last compacted the table: once a store is full that is thousands of them,
 * on every eviction, which is every write.
 */
interface Node<V> {
	key: string;
	value: V;
	/** Toward the oldest entry. */
	older: Node<V> | null;
	/** Toward the newest entry. */
	newer: Node<V> | null;
}

export class LruList<V> {
	private readonly nodes = new Map<string, Node<V>>();
	private oldestNode: Node<V> | null = null;
	private newestNode: Node<V> | null = null;

	get size(): number {
		return this.nodes.size;
	}

	has(key: string): boolean {
		return this.nodes.has(key);
	}

	get(key: string): V | undefined {
		return this.nodes.get(key)?.value;
	}

	/** Adds or replaces `key`'s value, as the newest entry. */
	set(key: string, value: V): void {
		const node = this.nodes.get(key);
		if (node !== undefined) {
			node.value = value;
			this.moveToNewest(node);
			return;
		}
		const added: Node<V> = { key, value, older: this.newestNode, newer: null };
		if (this.newestNode !== null) this.newestNode.newer = added;
		else this.oldestNode = added;
		this.newestNode = added;
		this.nodes.set(key, added);
	}

	/** Makes `key` the newest entry; false when there is no such entry. */
	touch(key: string): boolean {
		const node = this.nodes.get(key);
		if (node === undefined) return false;
		this.moveToNewest(node);
		return true;
	}

	/** Removes `key` and returns its value (undefined when there was none). */
	delete(key: string): V | undefined {
		const node = this.nodes.get(key);
		if (node === undefined) return undefined;
		this.nodes.delete(key);
		this.unlink(node);
		return node.value;
	}

	/** The oldest entry, or undefined when the list is empty. */
	oldest(): { key: string; value: V } | undefined {
		const node = this.oldestNode;
		return node === null ? undefined : { key: node.key, value: node.value };
	}

	/**
	 * The first key, from the oldest, that `accept` takes, or null. Nothing may change the list while it looks (the
	 * callback only answers).
	 */
	findFromOldest(accept: (key: string, value: V) => boolean): string | null {
		for (let node = this.oldestNode; node !== null; node = node.newer)
			if (accept(node.key, node.value)) return node.key;
		return null;
	}

	/** Every entry, oldest first (a copy, so the caller may change the list meanwhile). */
	entries(): [string, V][] {
		const all: [string, V][] = [];
		for (let node = this.oldestNode; node !== null; node = node.newer) all.push([node.key, node.value]);
		return all;
	}

	private moveToNewest(node: Node<V>): void {
		if (node === this.newestNode) return;
		this.unlink(node);
		node.older = this.newestNode;
		node.newer = null;
		if (this.newestNode !== null) this.newestNode.newer = node;
		else this.oldestNode = node;
		this.newestNode = node;
	}

	private unlink(node: Node<V>): void {
		if (node.older !== null) node.older.newer = node.newer;
		else this.oldestNode = node.newer;
		if (node.newer !== null) node.newer.older = node.older;
		else this.newestNode = node.older;
		node.older = null;
		node.newer = null;
	}
}
