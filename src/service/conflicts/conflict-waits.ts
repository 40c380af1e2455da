/**
 * Long-polls on conflict records (REST `GET /conflicts/{id}?wait=`, MCP `conflict_status` with `wait`) and on
 * proposals (`GET /proposals/{id}?wait=`, `proposal_status`), in one place and bounded: a caller may hold only so
 * many waits at once (on conflicts and proposals together), and so may everyone together. Past either cap the wait
 * is refused at once (the caller is told when to retry), never left to hold a connection the server needs.
 */
import type { ConflictRecord } from "../../core/conflicts";
import type { ConflictLog } from "../stores/conflict-log";
import type { Timers } from "../../core/timers";

/** Waits one key (or MCP session) may have under way at once. */
export const WAITS_PER_CALLER = 16;
/** Waits everyone together may have under way at once. */
export const WAITS_IN_ALL = 128;
export const MAX_WAIT_MS = 60_000;

export type WaitOutcome<T = ConflictRecord> =
	| { kind: "settled"; record: T }
	/** `caller`: this caller holds too many waits (429); `everyone`: the server holds too many (503). */
	| { kind: "too-many"; who: "caller" | "everyone"; retryAfterSeconds: number };

/** What a long-poll waits on: `watch` calls back once the record changed as the caller waits for; returns the unsubscriber. */
export interface WaitSource<T> {
	watch(changed: () => void): () => void;
	latest(): T;
}

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
	wait(record: ConflictRecord, ms: number, caller: string, signal?: AbortSignal): Promise<WaitOutcome> {
		const seen = record.status;
		return this.waitFor(record, ms, caller, signal, {
			watch: (changed) =>
				this.conflicts.onChange((change) => {
					if (change.id === record.id && change.status !== seen) changed();
				}),
			latest: () => this.conflicts.get(record.id) ?? record,
		});
	}

	/**
	 * Any record's long-poll under the same caps: resolves with `latest()` once `watch` calls back, when `ms` runs out,
	 * or when `signal` aborts (the caller went away), whichever comes first.
	 */
	async waitFor<T>(
		record: T,
		ms: number,
		caller: string,
		signal: AbortSignal | undefined,
		source: WaitSource<T>,
	): Promise<WaitOutcome<T>> {
		if (ms <= 0) return { kind: "settled", record };
		const held = this.byCaller.get(caller) ?? 0;
		if (held >= this.caps.perCaller) return { kind: "too-many", who: "caller", retryAfterSeconds: 5 };
		if (this.total >= this.caps.inAll) return { kind: "too-many", who: "everyone", retryAfterSeconds: 5 };
		this.byCaller.set(caller, held + 1);
		this.total++;
		try {
			return { kind: "settled", record: await this.change(Math.min(ms, MAX_WAIT_MS), signal, source) };
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

	private change<T>(ms: number, signal: AbortSignal | undefined, source: WaitSource<T>): Promise<T> {
		return new Promise((resolve) => {
			const finish = () => {
				unsubscribe();
				this.timers.cancel(timer);
				signal?.removeEventListener("abort", finish);
				resolve(source.latest());
			};
			const unsubscribe = source.watch(finish);
			const timer = this.timers.schedule(finish, ms);
			signal?.addEventListener("abort", finish);
			if (signal?.aborted) finish();
		});
	}
}
