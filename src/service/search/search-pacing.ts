/**
 * How a search shares the host's one thread: it works in slices of about SLICE_MS and gives the host a turn between
 * them (between notes, and inside long work on one note), so searching 10,000 notes never freezes Obsidian or holds
 * up the server's other requests. The clock is injected so tests can count the turns without measuring time.
 */
import { SLICE_MS, type Steps, type YieldToHost } from "../../core/steps";

export class SearchPacing {
	private sliceStart: number;

	constructor(
		private readonly yieldToHost: YieldToHost,
		private readonly clock: () => number = () => performance.now(),
		private readonly sliceMs = SLICE_MS,
	) {
		this.sliceStart = clock();
	}

	/** Whether this slice has run its time (then `pause`); checked without a promise, for tight loops. */
	due(): boolean {
		return this.clock() - this.sliceStart >= this.sliceMs;
	}

	/** Gives the host a turn now, and starts a new slice. */
	async pause(): Promise<void> {
		await this.yieldToHost();
		this.sliceStart = this.clock();
	}

	/** Gives the host a turn if this slice has run its time. */
	async turn(): Promise<void> {
		if (this.due()) await this.pause();
	}

	/** Runs `steps` to the end, giving the host turns between its pieces as the slices run out. */
	async finish<T>(steps: Steps<T>): Promise<T> {
		for (;;) {
			const next = steps.next();
			if (next.done) return next.value;
			if (this.due()) await this.pause();
		}
	}
}
