/**
 * The .bak notes refusals are writing right now: how many at once, which names, and where the next free numbered name
 * of a second probably is.
 * Refusals of one note in one second are named `-2`, `-3`… after the first, and each used to try every number
 * from the first again (one file-system check each): with many agents refused at once, that grew with the square of
 * their number. Each name is still created exclusively, so a wrong guess costs a try, never a name.
 */
export class BackupNames {
	/** Names being created right now: each is tried by one refusal at a time (see RefusedBodyDeps). */
	private readonly inFlight = new Set<string>();
	/** For one note's names of one second (keyed by the first of them), the number after the last one taken. */
	private readonly next = new Map<string, number>();

	/** Refusals writing a .bak now, and those waiting for their turn (see `inTurn`). */
	private writing = 0;
	private readonly waiting: (() => void)[] = [];

	/**
	 * Runs `write` once fewer than MAX_WRITING .bak notes are being written. Every refusal must make its body durable
	 * before it is answered, and each .bak is a file, an fsync and a folder fsync: a burst of refusals, each retried at
	 * once, would otherwise fill the disk's queue and slow the writes that get through (they hold the note's lock).
	 */
	async inTurn<T>(write: () => Promise<T>): Promise<T> {
		if (this.writing >= MAX_WRITING) await new Promise<void>((resolve) => this.waiting.push(resolve));
		else this.writing++;
		try {
			return await write();
		} finally {
			const next = this.waiting.shift();
			if (next) next();
			else this.writing--;
		}
	}

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

/**
 * How many refusals write their .bak at once (for the whole vault). Without a bound, 32 agents refused over and over
 * on one note left the writes that got through a fifth of what they had with it (most of the disk's fsyncs went to
 * .bak notes); one to four made no difference there, and four lets refusals of different notes overlap.
 */
const MAX_WRITING = 4;
