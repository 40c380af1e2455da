/**
 * Writes in place whose last disk step (the folder fsync after the rename) is still under way, per note. A later
 * write of the note that makes nothing durable of its own (its text was already there), or that stands on the one
 * before it (a delete moves the note that write put in place), is acknowledged only once the one before it is on
 * disk: else a crash could undo what it was told stands.
 */
import type { NotDurableChange } from "../refusals/not-durable";
import type { WriteOutcome } from "./write-request";

/**
 * A write, or a delete, in place whose last disk step is awaited once the lock is released (MutationOutcome.durable):
 * answered `answer` once durable, and not-durable with `inPlace` if the disk fails it.
 */
export interface AwaitingDisk {
	kind: "awaiting-disk";
	answer: Extract<WriteOutcome, { kind: "written" | "deleted" }>;
	inPlace: NotDurableChange;
	durable: Promise<void>;
}

export class PendingDurability {
	private readonly pendingByPath = new Map<string, Promise<void>>();

	/** Remembers `durable` as the latest pending step of `path` (call inside the note's lock). */
	pending(path: string, durable: Promise<void>): void {
		this.pendingByPath.set(path, durable);
		// Forgotten once durable. A step the disk failed is kept until the next write of the note replaces it: until then
		// what is in place is not known to be on disk, so a later write that stands on it is not acknowledged either.
		durable.then(
			() => {
				if (this.pendingByPath.get(path) === durable) this.pendingByPath.delete(path);
			},
			() => undefined,
		);
	}

	/** A write of `path` that is durable as it lands (no step left): what was pending before it no longer matters. */
	durableNow(path: string): void {
		this.pendingByPath.delete(path);
	}

	/**
	 * What must be on disk before a write of `path` that adds nothing of its own is acknowledged (call inside the lock).
	 * Rejects when the disk failed to make it durable: the later write is then not acknowledged as durable either.
	 */
	of(path: string): Promise<void> | undefined {
		return this.pendingByPath.get(path);
	}
}
