/** Obsidian's Events/EventRef: a ref knows its owner, so `registerEvent` can really detach it on unload. */

export interface EventRef {
	name: string;
	callback: (...args: unknown[]) => unknown;
	owner: Events;
}

export class Events {
	private readonly handlers = new Map<string, Set<EventRef>>();

	on(name: string, callback: (...args: never[]) => unknown): EventRef {
		const ref: EventRef = { name, callback: callback as (...args: unknown[]) => unknown, owner: this };
		if (!this.handlers.has(name)) this.handlers.set(name, new Set());
		this.handlers.get(name)!.add(ref);
		return ref;
	}

	off(name: string, callback: (...args: never[]) => unknown): void {
		for (const ref of this.handlers.get(name) ?? [])
			if (ref.callback === callback) this.handlers.get(name)!.delete(ref);
	}

	offref(ref: EventRef): void {
		this.handlers.get(ref.name)?.delete(ref);
	}

	trigger(name: string, ...args: unknown[]): void {
		for (const ref of [...(this.handlers.get(name) ?? [])]) ref.callback(...args);
	}

	/** Handlers listening now (tests check that unloading detached everything). */
	listenerCount(name?: string): number {
		if (name !== undefined) return this.handlers.get(name)?.size ?? 0;
		let count = 0;
		for (const set of this.handlers.values()) count += set.size;
		return count;
	}
}
