/**
 * The simulation's own clock, for what Obsidian does on timers of its own: the 2-second autosave of a typed-in editor
 * and the file watcher noticing outside changes late. Tests move it explicitly (`advance`), so the order of those
 * events is the test's to choose (or fast-check's), never the machine's load. The plugin's own timers are real.
 */

interface Due {
	at: number;
	seq: number;
	run: () => unknown;
}

export class SimClock {
	private time = 0;
	private seq = 0;
	private queue: Due[] = [];

	get now(): number {
		return this.time;
	}

	/** Runs `run` after `ms` of simulated time; returns a handle for `cancel`. */
	schedule(run: () => unknown, ms: number): number {
		const due: Due = { at: this.time + Math.max(0, ms), seq: ++this.seq, run };
		this.queue.push(due);
		return due.seq;
	}

	cancel(handle: number | null | undefined): void {
		if (handle === null || handle === undefined) return;
		this.queue = this.queue.filter((due) => due.seq !== handle);
	}

	/** Simulated timers still waiting. */
	get pending(): number {
		return this.queue.length;
	}

	/**
	 * Moves time forward by `ms`, running every timer that falls due in order, and letting the promises each one
	 * starts settle (real I/O included) before the next runs.
	 */
	async advance(ms: number): Promise<void> {
		const until = this.time + ms;
		for (;;) {
			const next = this.queue.filter((due) => due.at <= until).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
			if (!next) break;
			this.queue = this.queue.filter((due) => due !== next);
			this.time = next.at;
			await next.run();
			await settle();
		}
		this.time = until;
		await settle();
	}

	/** Runs every timer, however far ahead (what "wait until things are quiet" means in the simulation). */
	async runAll(limit = 10_000): Promise<void> {
		for (let step = 0; this.queue.length > 0 && step < limit; step++) {
			const next = [...this.queue].sort((a, b) => a.at - b.at || a.seq - b.seq)[0]!;
			await this.advance(next.at - this.time);
		}
	}
}

/** Lets pending promise chains (and the real I/O they wait on) run: a few turns of the event loop. */
export async function settle(turns = 3): Promise<void> {
	for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
