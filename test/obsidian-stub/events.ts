/** Obsidian's Events/EventRef, minimal. */

export interface EventRef {
	name: string;
	callback: (...args: unknown[]) => unknown;
}

export class Events {
	private readonly handlers = new Map<string, Set<EventRef>>();

	on(name: string, callback: (...args: never[]) => unknown): EventRef {
		const ref: EventRef = { name, callback: callback as (...args: unknown[]) => unknown };
		if (!this.handlers.has(name)) this.handlers.set(name, new Set());
		this.handlers.get(name)!.add(ref);
		return ref;
	}

	offref(ref: EventRef): void {
		this.handlers.get(ref.name)?.delete(ref);
	}

	trigger(name: string, ...args: unknown[]): void {
		for (const ref of [...(this.handlers.get(name) ?? [])]) ref.callback(...args);
	}
}
