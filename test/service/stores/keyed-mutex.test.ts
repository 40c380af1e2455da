import { describe, expect, it } from "vitest";
import { KeyedMutex } from "../../../src/service/stores/keyed-mutex";

function deferred<T = void>() {
	let resolve!: (value: T) => void;
	let reject!: (reason: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

/** Lets every queued microtask (and promise chain) run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("KeyedMutex", () => {
	it("runs work and passes its result through", async () => {
		const mutex = new KeyedMutex();
		await expect(mutex.run("a", async () => 42)).resolves.toBe(42);
	});

	it("never overlaps work on the same key", async () => {
		const mutex = new KeyedMutex();
		const events: string[] = [];
		const first = deferred();
		const second = deferred();
		const p1 = mutex.run("note.md", async () => {
			events.push("start 1");
			await first.promise;
			events.push("end 1");
			return 1;
		});
		const p2 = mutex.run("note.md", async () => {
			events.push("start 2");
			await second.promise;
			events.push("end 2");
			return 2;
		});
		await settle();
		expect(events).toEqual(["start 1"]);
		second.resolve();
		await settle();
		expect(events).toEqual(["start 1"]);
		first.resolve();
		await expect(p1).resolves.toBe(1);
		await expect(p2).resolves.toBe(2);
		expect(events).toEqual(["start 1", "end 1", "start 2", "end 2"]);
	});

	it("runs same-key work in the order it was queued", async () => {
		const mutex = new KeyedMutex();
		const order: number[] = [];
		const gates = Array.from({ length: 5 }, () => deferred());
		const runs = gates.map((gate, i) =>
			mutex.run("k", async () => {
				order.push(i);
				await gate.promise;
			}),
		);
		// Release in reverse: order must still follow queueing, one at a time.
		for (const gate of [...gates].reverse()) gate.resolve();
		await Promise.all(runs);
		expect(order).toEqual([0, 1, 2, 3, 4]);
	});

	it("never has more than one task in flight per key under many interleaved tasks", async () => {
		const mutex = new KeyedMutex();
		const active = new Map<string, number>();
		let maxSeen = 0;
		const runs: Promise<void>[] = [];
		for (let i = 0; i < 60; i++) {
			const key = `k${i % 3}`;
			runs.push(
				mutex.run(key, async () => {
					const now = (active.get(key) ?? 0) + 1;
					active.set(key, now);
					maxSeen = Math.max(maxSeen, now);
					for (let j = 0; j < (i % 4) + 1; j++) await settle();
					active.set(key, (active.get(key) ?? 1) - 1);
				}),
			);
		}
		await Promise.all(runs);
		expect(maxSeen).toBe(1);
	});

	it("runs work on different keys concurrently", async () => {
		const mutex = new KeyedMutex();
		const a = deferred();
		const b = deferred();
		const started: string[] = [];
		const pa = mutex.run("a.md", async () => {
			started.push("a");
			await a.promise;
		});
		const pb = mutex.run("b.md", async () => {
			started.push("b");
			await b.promise;
		});
		await settle();
		expect(started).toEqual(["a", "b"]);
		// b can finish while a is still running.
		b.resolve();
		await pb;
		a.resolve();
		await pa;
	});

	it("a rejected task does not block the next one, and its error reaches only its own caller", async () => {
		const mutex = new KeyedMutex();
		const gate = deferred();
		const failing = mutex.run("k", async () => {
			await gate.promise;
			throw new Error("boom");
		});
		const next = mutex.run("k", async () => "ran");
		gate.resolve();
		await expect(failing).rejects.toThrow("boom");
		await expect(next).resolves.toBe("ran");
	});

	it("a task that throws synchronously does not block the next one", async () => {
		const mutex = new KeyedMutex();
		const failing = mutex.run("k", () => {
			throw new Error("sync boom");
		});
		await expect(failing).rejects.toThrow("sync boom");
		await expect(mutex.run("k", async () => "after")).resolves.toBe("after");
	});

	it("can be reused for a key after its queue drained", async () => {
		const mutex = new KeyedMutex();
		await mutex.run("k", async () => 1);
		await settle();
		await expect(mutex.run("k", async () => 2)).resolves.toBe(2);
		expect((mutex as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
	});

	it("drops a key's bookkeeping once its queue drains", async () => {
		const mutex = new KeyedMutex();
		await Promise.all([mutex.run("a", async () => 1), mutex.run("a", async () => 2), mutex.run("b", async () => 3)]);
		await settle();
		expect((mutex as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
	});

	it("runAll holds every key: work on any of them waits, and two runs over the same keys in either order finish", async () => {
		const mutex = new KeyedMutex();
		const events: string[] = [];
		const held = deferred();
		const both = mutex.runAll(["b", "a"], async () => {
			events.push("both start");
			await held.promise;
			events.push("both end");
		});
		await settle();
		const onA = mutex.run("a", async () => void events.push("a"));
		const onB = mutex.run("b", async () => void events.push("b"));
		await settle();
		expect(events).toEqual(["both start"]);
		held.resolve();
		await Promise.all([both, onA, onB]);
		expect(events.slice(0, 2)).toEqual(["both start", "both end"]);
		// Opposite orders of the same keys: taken in one order, so neither waits on the other for ever.
		await Promise.all([mutex.runAll(["x", "y"], async () => settle()), mutex.runAll(["y", "x"], async () => settle())]);
	});
});
