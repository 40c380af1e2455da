/**
 * What the conflict and proposal routes share: the record id from the path, and the `wait` long-poll (its parameter
 * and its answer when no wait could be spared).
 */
import { MAX_WAIT_MS, type WaitOutcome } from "../../service/conflicts/conflict-waits";
import { problem } from "../problems";
import type { ApiResponse } from "../response";

const MAX_WAIT_SECONDS = MAX_WAIT_MS / 1000;

/** The id as sent, percent-decoded; null when it is not valid percent-encoding. */
export function decodeId(raw: string): string | null {
	try {
		return decodeURIComponent(raw);
	} catch {
		return null;
	}
}

/** `wait` in milliseconds (null: no long-poll asked for), or the 400 that says what it must be. */
export function waitOf(param: string | null): { ms: number | null } | { refused: ApiResponse } {
	if (param === null) return { ms: null };
	const seconds = Number(param);
	if (param.trim() === "" || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_SECONDS) {
		return { refused: problem("bad-request", `wait must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}.`) };
	}
	return { ms: seconds * 1000 };
}

/** The answer when no long-poll could be spared: 429 for this key, 503 for the server. `what`: "the conflict"… */
export function waitNotSpared(outcome: Extract<WaitOutcome<unknown>, { kind: "too-many" }>, what: string): ApiResponse {
	const retry = { "Retry-After": String(outcome.retryAfterSeconds) };
	return outcome.who === "caller"
		? problem(
				"too-many-waits",
				`This key already has as many long-polls under way as it may; nothing was waited for. Retry in ${outcome.retryAfterSeconds} s, or GET ${what} without wait.`,
				{},
				retry,
			)
		: problem(
				"server-busy",
				`The server already holds as many long-polls as it allows; nothing was waited for. Retry in ${outcome.retryAfterSeconds} s.`,
				{},
				retry,
			);
}
