/**
 * What each client last read (or wrote) of each note: the implicit token for clients that never send If-Match.
 * Bounded (least recently used first out) and in memory only: forgetting is safe, it leads to 428, never to an
 * overwrite.
 */

export interface LastRead {
	revision: string;
	/** Epoch milliseconds of the read or write. */
	time: number;
	/**
	 * How much of the note the client saw: all of it (a read, or a write it knew the whole result of), or a part (a
	 * document map, a section, an append to a note it never read). Only a whole read stands in for a missing
	 * If-Match on a write that replaces or deletes the whole note.
	 */
	sight: "whole" | "part";
}

/** A client's last read as a tokenless write is held to it: the revision, and how much of it the client saw. */
export type HeldRead = Pick<LastRead, "revision" | "sight">;

export class ReadLedger {
	private readonly entries = new Map<string, LastRead>();
	/** Who holds a read of each path, so a change can find every read of it without a walk of the whole ledger. */
	private readonly clientsByPath = new Map<string, Set<string>>();

	constructor(private capacity: number) {}

	/** A read or write of `revision` by `client`. A part of a revision it saw whole leaves it seen whole. */
	record(client: string, path: string, revision: string, time: number, sight: "whole" | "part" = "whole"): void {
		const key = keyOf(client, path);
		const earlier = this.entries.get(key);
		const seen = sight === "part" && earlier?.revision === revision ? earlier.sight : sight;
		this.entries.delete(key);
		this.entries.set(key, { revision, time, sight: seen });
		let clients = this.clientsByPath.get(path);
		if (!clients) this.clientsByPath.set(path, (clients = new Set()));
		clients.add(client);
		this.trim();
	}

	/** The clients whose names start with `prefix` that hold a read of `path` (an MCP key's sessions: `key:…:`). */
	clientsOf(path: string, prefix: string): string[] {
		return [...(this.clientsByPath.get(path) ?? [])].filter((client) => client.startsWith(prefix));
	}

	/**
	 * Someone acting for the same agent changed the note from `from` to `to`: a read that stood exactly on `from` now
	 * stands on `to`, seen as much as before. Nothing that was not this agent's own change can come in between.
	 */
	carry(client: string, path: string, from: string, to: string, time: number): void {
		const key = keyOf(client, path);
		const earlier = this.entries.get(key);
		if (earlier?.revision !== from) return;
		this.entries.delete(key);
		this.entries.set(key, { revision: to, time, sight: earlier.sight });
	}

	/** The client's read of `path` ends: it deleted the note, or a read found it gone. */
	forget(client: string, path: string): void {
		this.drop(keyOf(client, path));
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
		for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
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
			this.drop(key);
		}
	}

	private drop(key: string): void {
		if (!this.entries.delete(key)) return;
		const split = key.indexOf("\u0000");
		const [client, path] = [key.slice(0, split), key.slice(split + 1)];
		const clients = this.clientsByPath.get(path);
		clients?.delete(client);
		if (clients?.size === 0) this.clientsByPath.delete(path);
	}
}

function keyOf(client: string, path: string): string {
	return `${client}\u0000${path}`;
}
