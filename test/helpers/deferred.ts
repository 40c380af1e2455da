/** Promises a test settles by hand, and a way to let every queued promise step run. */

/** A promise the test settles by hand. */
export function deferred(): { promise: Promise<void>; release: () => void } {
	let release!: () => void;
	const promise = new Promise<void>((resolve) => (release = resolve));
	return { promise, release };
}

/** Lets every queued promise step run (one turn of the event loop). */
export const settle = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
