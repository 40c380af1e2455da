/**
 * The folder lock: taken whole or not at all, refused while its holder lives (naming it), taken over from a dead
 * holder (a pid that is gone, or now another process's), never judged across machines, released only by its owner.
 */
import { spawn } from "child_process";
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "fs/promises";
import { hostname, tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { peekLock, takeLock, type HeldLock, type LockAttempt } from "../../src/headless/folder-lock";
import { livenessOf, processStartOf } from "../../src/headless/holder-liveness";
import { holderRecord, parseHolder, type HolderRecord } from "../../src/host/running-marker";

let dir: string;
let lock: string;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-lock-"));
	lock = join(dir, ".revision-guard", "host.lock");
});

afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
	const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
	await new Promise((resolve) => child.on("exit", resolve));
	return child.pid!;
}

function held(attempt: LockAttempt): HeldLock {
	if (!("held" in attempt)) throw new Error(`expected the lock, got ${JSON.stringify(attempt)}`);
	return attempt.held;
}

async function leftBehind(record: HolderRecord): Promise<void> {
	await takeLock(lock, record).then(held);
}

describe("livenessOf", () => {
	it("finds this process alive, and its start time where the system tells it", () => {
		const me = holderRecord("headless", 1);
		expect(livenessOf(me)).toBe("alive");
		const started = processStartOf(process.pid);
		if (typeof started === "number") expect(Math.abs(started - me.processStart)).toBeLessThan(5_000);
	});

	it("finds a pid that has exited gone", async () => {
		expect(livenessOf({ ...holderRecord("headless", 1), pid: await deadPid() })).toBe("gone");
	});

	it("finds a pid that now belongs to a process started at another time gone (pid reuse)", () => {
		if (process.platform === "win32") return; // no start times there: a live pid is taken as the holder
		expect(livenessOf({ ...holderRecord("headless", 1), processStart: Date.now() - 86_400_000 })).toBe("gone");
	});

	it("never judges a record from another machine", async () => {
		expect(
			livenessOf({ ...holderRecord("headless", 1), hostname: `${hostname()}-elsewhere`, pid: await deadPid() }),
		).toBe("elsewhere");
	});
});

describe("takeLock", () => {
	it("takes a free lock and writes its whole record, private to the user", async () => {
		const record = holderRecord("headless", 27125);
		const lockHeld = held(await takeLock(lock, record));
		expect(lockHeld.tookOver).toBeNull();
		expect(parseHolder(await readFile(lock, "utf8"))).toEqual(record);
		expect(await readdir(join(dir, ".revision-guard"))).toEqual(["host.lock"]);
	});

	it("refuses while a live process holds it, naming that holder", async () => {
		const first = holderRecord("headless", 27125);
		await leftBehind(first);
		const second = await takeLock(lock, holderRecord("headless", 27126));
		expect(second).toEqual({ refused: { holder: first, liveness: "alive" } });
		expect(await peekLock(lock)).toEqual({ holder: first, liveness: "alive" });
		expect(parseHolder(await readFile(lock, "utf8"))).toEqual(first);
	});

	it("takes over a lock left by a process that died, and says whose it was", async () => {
		const dead = { ...holderRecord("headless", 27125), pid: await deadPid() };
		await leftBehind(dead);
		expect(await peekLock(lock)).toBeNull();
		const mine = holderRecord("headless", 27126);
		const taken = held(await takeLock(lock, mine));
		expect(taken.tookOver).toEqual(dead);
		expect(parseHolder(await readFile(lock, "utf8"))).toEqual(mine);
		// Nothing is left beside it: no temp file, no stale copy.
		expect(await readdir(join(dir, ".revision-guard"))).toEqual(["host.lock"]);
	});

	it("takes over a lock whose pid now belongs to another process (started at another time)", async () => {
		if (process.platform === "win32") return;
		const reused = { ...holderRecord("headless", 27125), processStart: Date.now() - 86_400_000 };
		await leftBehind(reused);
		expect(held(await takeLock(lock, holderRecord("headless", 1))).tookOver).toEqual(reused);
	});

	it("refuses a lock from another machine, whose pid it cannot judge", async () => {
		const remote = { ...holderRecord("headless", 27125), hostname: `${hostname()}-elsewhere`, pid: await deadPid() };
		await leftBehind(remote);
		expect(await takeLock(lock, holderRecord("headless", 1))).toEqual({
			refused: { holder: remote, liveness: "elsewhere" },
		});
	});

	it("of many processes taking over one stale lock at once, exactly one gets it", async () => {
		await leftBehind({ ...holderRecord("headless", 1), pid: await deadPid() });
		// Each contender is a record of its own; all are alive (this process), so the losers meet the winner.
		const attempts = await Promise.all(
			Array.from({ length: 8 }, (_, i) => takeLock(lock, holderRecord("headless", 2000 + i))),
		);
		const winners = attempts.filter((attempt) => "held" in attempt);
		expect(winners).toHaveLength(1);
		const winner = (winners[0] as { held: HeldLock }).held.record;
		expect(parseHolder(await readFile(lock, "utf8"))).toEqual(winner);
		for (const attempt of attempts) if ("refused" in attempt) expect(attempt.refused.holder).toEqual(winner);
		expect(await readdir(join(dir, ".revision-guard"))).toEqual(["host.lock"]);
	});

	it("refuses an unreadable lock while it may still be being written, and takes it over once long untouched", async () => {
		await leftBehind(holderRecord("headless", 1));
		await writeFile(lock, "");
		expect(await takeLock(lock, holderRecord("headless", 2))).toEqual({
			refused: { holder: null, liveness: "unreadable" },
		});
		const old = new Date(Date.now() - 60_000);
		await utimes(lock, old, old);
		expect(held(await takeLock(lock, holderRecord("headless", 2))).tookOver).toBe("unreadable");
	});

	it("is released by its holder only: a lock that replaced it is left alone", async () => {
		const first = held(await takeLock(lock, holderRecord("headless", 1)));
		await first.release();
		await expect(readFile(lock, "utf8")).rejects.toThrow(/ENOENT/);
		const second = held(await takeLock(lock, holderRecord("headless", 2)));
		await first.release();
		first.releaseSync();
		expect(parseHolder(await readFile(lock, "utf8"))).toEqual(second.record);
		second.releaseSync();
		await expect(readFile(lock, "utf8")).rejects.toThrow(/ENOENT/);
	});
});
