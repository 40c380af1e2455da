/**
 * What each client last read (or wrote) of each note: the implicit token for clients that never send If-Match.
 * Bounded (least recently used first out) and in memory only: forgetting is safe, it leads to 428, never to an
 * overwrite.
 */

export interface LastRead {
	revision: string;
	/** Epoch milliseconds of the read or write. */
	time: number;
}

export class ReadLedger {
	private readonly entries = new Map<string, LastRead>();

	constructor(private capacity: number) {}

	record(client: string, path: string, revision: string, time: number): void {
		const key = keyOf(client, path);
		this.entries.delete(key);
		this.entries.set(key, { revision, time });
		this.trim();
	}

	lastRead(client: string, path: string): LastRead | undefined {
		const key = keyOf(client, path);
		const entry = this.entries.get(key);
		if (entry) {
			this.entries.delete(key);
			this.entries.set(key, entry);
		}
		return entry;
	}

	/** Drops everything one client read (an MCP session that ended). */
	forgetClient(client: string): void {
		const prefix = client + "\u0000";
		for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
	}

	setCapacity(capacity: number): void {
		this.capacity = capacity;
		this.trim();
	}

	get size(): number {
		return this.entries.size;
	}

	private trim(): void {
		for (const key of this.entries.keys()) {
			if (this.entries.size <= this.capacity) break;
			this.entries.delete(key);
		}
	}
}

function keyOf(client: string, path: string): string {
	return `${client}\u0000${path}`;
}
