/**
 * Long-polls on conflict records (REST `GET /conflicts/{id}?wait=`, MCP `conflict_status` with `wait`), in one place
 * and bounded: a caller may hold only so many waits at once, and so may everyone together. Past either cap the
 * wait is refused at once (the caller is told when to retry), never left to hold a connection the server needs.
 */
import type { ConflictLog, ConflictRecord } from "../core/conflicts";
import type { Timers } from "../core/timers";

/** Waits one key (or MCP session) may have under way at once. */
export const WAITS_PER_CALLER = 16;
/** Waits everyone together may have under way at once. */
export const WAITS_IN_ALL = 128;
export const MAX_WAIT_MS = 60_000;

export type WaitOutcome =
	| { kind: "settled"; record: ConflictRecord }
	/** `caller`: this caller holds too many waits (429); `everyone`: the server holds too many (503). */
	| { kind: "too-many"; who: "caller" | "everyone"; retryAfterSeconds: number };

export interface WaitCaps {
	perCaller: number;
	inAll: number;
}

export class ConflictWaits {
	private readonly byCaller = new Map<string, number>();
	private total = 0;

	constructor(
		private readonly conflicts: ConflictLog,
		private readonly timers: Timers,
		private readonly caps: WaitCaps = { perCaller: WAITS_PER_CALLER, inAll: WAITS_IN_ALL },
	) {}

	/**
	 * Resolves with the record once its status differs from `record.status`, when `ms` runs out, or when `signal`
	 * aborts (the caller went away), whichever comes first.
	 */
	async wait(record: ConflictRecord, ms: number, caller: string, signal?: AbortSignal): Promise<WaitOutcome> {
		if (ms <= 0) return { kind: "settled", record };
		const held = this.byCaller.get(caller) ?? 0;
		if (held >= this.caps.perCaller) return { kind: "too-many", who: "caller", retryAfterSeconds: 5 };
		if (this.total >= this.caps.inAll) return { kind: "too-many", who: "everyone", retryAfterSeconds: 5 };
		this.byCaller.set(caller, held + 1);
		this.total++;
		try {
			return { kind: "settled", record: await this.statusChange(record, Math.min(ms, MAX_WAIT_MS), signal) };
		} finally {
			this.total--;
			const left = (this.byCaller.get(caller) ?? 1) - 1;
			if (left > 0) this.byCaller.set(caller, left);
			else this.byCaller.delete(caller);
		}
	}

	/** Waits under way now (tests, diagnostics). */
	get pending(): number {
		return this.total;
	}

	private statusChange(record: ConflictRecord, ms: number, signal?: AbortSignal): Promise<ConflictRecord> {
		const seen = record.status;
		return new Promise((resolve) => {
			const finish = () => {
				unsubscribe();
				this.timers.cancel(timer);
				signal?.removeEventListener("abort", finish);
				resolve(this.conflicts.get(record.id) ?? record);
			};
			const unsubscribe = this.conflicts.onChange((changed) => {
				if (changed.id === record.id && changed.status !== seen) finish();
			});
			const timer = this.timers.schedule(finish, ms);
			signal?.addEventListener("abort", finish);
			if (signal?.aborted) finish();
		});
	}
}
