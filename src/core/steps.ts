/**
 * Long computations in core (diffs and merges of huge notes) are generators that yield between bounded pieces of
 * work. The same code runs to the end at once (`finishNow`), or in slices that give the host's event loop a turn
 * between them (`finishInSlices`), so a 5 MB merge never freezes Obsidian or stalls the server's other requests.
 * Where the slices fall never changes the result: the work is deterministic, only its pacing is not.
 */
import type { Timers } from "./timers";

export type Steps<T> = Generator<void, T, undefined>;

/** Gives the host's event loop a turn, then resolves. */
export type YieldToHost = () => Promise<void>;

/** Runs `steps` to the end without pausing (small inputs, tests, the merge command). */
export function finishNow<T>(steps: Steps<T>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
	}
}

/** How long one slice may run before the host gets a turn: well under a frame and under Obsidian's 50 ms budget. */
export const SLICE_MS = 8;

/** Runs `steps`, letting the host run between slices of about `sliceMs`. */
export async function finishInSlices<T>(steps: Steps<T>, yieldToHost: YieldToHost, sliceMs = SLICE_MS): Promise<T> {
	let sliceStart = performance.now();
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
		if (performance.now() - sliceStart >= sliceMs) {
			await yieldToHost();
			sliceStart = performance.now();
		}
	}
}

/** A YieldToHost made of the injected timers (the window's in Obsidian, Node's headless). */
export function yieldVia(timers: Timers): YieldToHost {
	return () =>
		new Promise<void>((resolve) => {
			timers.schedule(resolve, 0);
		});
}
