/**
 * Whether the process a lock or marker names still runs. A pid alone is not enough: after the holder dies, the
 * system may give its pid to another process, so the process's start time must match the one recorded too. A
 * record from another machine (a synced folder) cannot be judged from here at all.
 */
import { execFileSync } from "child_process";
import { readFileSync } from "fs";
import { hostname } from "os";
import type { HolderRecord } from "../host/running-marker";

export type Liveness = "alive" | "gone" | "elsewhere";

/**
 * How far a measured start time may stray from the recorded one and still be the same process: the two are
 * measured with different clocks (the process's own uptime, the system's boot time), and a clock set between
 * them shifts one. Generous on purpose: a wrong "alive" only refuses a start (with words saying what to do), a
 * wrong "gone" would let two hosts serve one folder.
 */
const START_TOLERANCE_MS = 30_000;

export function livenessOf(record: HolderRecord, thisMachine = hostname()): Liveness {
	if (record.hostname !== thisMachine) return "elsewhere";
	if (!pidExists(record.pid)) return "gone";
	const started = processStartOf(record.pid);
	if (started === "dead") return "gone";
	// Unknown (Windows, or no ps): the pid exists, so assume it is the holder rather than risk two hosts.
	if (started === null) return "alive";
	return Math.abs(started - record.processStart) <= START_TOLERANCE_MS ? "alive" : "gone";
}

function pidExists(pid: number): boolean {
	if (!Number.isSafeInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists, but belongs to another user.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/**
 * When process `pid` started (ms since the epoch), null when this system cannot say, or "dead" for a process that
 * has exited but was not yet reaped by its parent (a zombie still answers to its pid).
 */
export function processStartOf(pid: number): number | "dead" | null {
	if (process.platform === "linux") return linuxStart(pid);
	if (process.platform === "win32") return null;
	return psStart(pid);
}

/** Linux: the start time in clock ticks after boot (field 22 of /proc/PID/stat) plus the boot time (/proc/stat). */
function linuxStart(pid: number): number | "dead" | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		// The command name (field 2) is in parentheses and may hold spaces or parentheses: count after the last ")".
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		if (fields[0] === "Z" || fields[0] === "X") return "dead";
		const ticks = Number(fields[19]);
		const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
		if (!Number.isFinite(ticks) || !Number.isFinite(bootSeconds)) return null;
		// /proc reports in USER_HZ, which is 100 on every Linux architecture's user ABI.
		return bootSeconds * 1000 + ticks * 10;
	} catch {
		return null;
	}
}

/** Other POSIX systems (macOS, the BSDs): ps's elapsed time, `[[dd-]hh:]mm:ss`. */
function psStart(pid: number): number | null {
	try {
		const elapsed = execFileSync("ps", ["-o", "etime=", "-p", String(pid)], {
			encoding: "utf8",
			timeout: 2_000,
		}).trim();
		const match = /^(?:(?:(\d+)-)?(\d+):)?(\d+):(\d+)$/.exec(elapsed);
		if (!match) return null;
		const [, days = "0", hours = "0", minutes = "0", seconds = "0"] = match;
		return Date.now() - (((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
	} catch {
		return null;
	}
}
