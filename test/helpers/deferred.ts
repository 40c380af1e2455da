/** Promises a test settles by hand, and a way to let every queued promise step run. */

/** A promise the test settles by hand: `release` resolves it, `fail` rejects it. */
export function deferred(): { promise: Promise<void>; release: () => void; fail: (error: unknown) => void } {
	let release!: () => void;
	let fail!: (error: unknown) => void;
	const promise = new Promise<void>((resolve, reject) => ((release = resolve), (fail = reject)));
	return { promise, release, fail };
}

/** Lets every queued promise step run (one turn of the event loop). */
export const settle = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
