/**
 * Writes that landed on a note while one of its refusals was being kept outside the note's lock. Before a refusal's
 * record exists, a write on top of the revision it refused cannot settle it; the refusal hands such writes over
 * again once its record is saved, so the record ends as if it had been there first.
 */
import type { CompletedWrite } from "./write-request";

export class LandedWrites {
	private readonly watching = new Map<string, Set<CompletedWrite[]>>();

	/** Starts collecting the writes that land on `path` (call inside the note's lock, when the refusal is decided). */
	watch(path: string): { writes: readonly CompletedWrite[]; stop: () => void } {
		const writes: CompletedWrite[] = [];
		let watchers = this.watching.get(path);
		if (!watchers) this.watching.set(path, (watchers = new Set()));
		watchers.add(writes);
		return {
			writes,
			stop: () => {
				watchers.delete(writes);
				if (watchers.size === 0 && this.watching.get(path) === watchers) this.watching.delete(path);
			},
		};
	}

	/** A write landed (called inside its note's lock). */
	landed(write: CompletedWrite): void {
		for (const writes of this.watching.get(write.path) ?? []) writes.push(write);
	}
}
