/**
 * The .bak names refusals are creating right now, and where the next free numbered name of a second probably is.
 * Refusals of one note in one second are named `-2`, `-3`… after the first, and each used to try every number
 * from the first again (one file-system check each): with many agents refused at once, that grew with the square of
 * their number. Each name is still created exclusively, so a wrong guess costs a try, never a name.
 */
export class BackupNames {
	/** Names being created right now: each is tried by one refusal at a time (see RefusedBodyDeps). */
	private readonly inFlight = new Set<string>();
	/** For one note's names of one second (keyed by the first of them), the number after the last one taken. */
	private readonly next = new Map<string, number>();

	/** Whether this refusal may try `path` now (false while another one is creating it). */
	claim(path: string): boolean {
		if (this.inFlight.has(path)) return false;
		this.inFlight.add(path);
		return true;
	}

	release(path: string): void {
		this.inFlight.delete(path);
	}

	/** The first number worth trying among the names that begin with `first`. */
	firstToTry(first: string): number {
		return this.next.get(first) ?? 1;
	}

	/** `number` was taken among the names that begin with `first`. */
	taken(first: string, number: number): void {
		// Only the current second's names matter; a few hundred notes refused in one second is already a lot.
		if (this.next.size >= 256 && !this.next.has(first)) this.next.clear();
		this.next.set(first, Math.max(number + 1, this.next.get(first) ?? 1));
	}
}
