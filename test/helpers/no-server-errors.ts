/**
 * Fails any test in which the server answered 5xx: an error path must always be a deliberate problem answer. 501 is
 * the one deliberate 5xx (a feature this host does not have, such as Dataview headless); a crash is always a 500.
 */
import { afterEach, beforeEach, expect } from "vitest";
import { observeResponses } from "./http-client";

/**
 * `deliberate`: 5xx problems a suite expects as the answer itself (a 501 that says the host cannot do this), by
 * problem type; any other 5xx still fails the test.
 */
export function forbidServerErrors(deliberate: readonly string[] = []): void {
	let seen: string[] = [];
	let stop: (() => void) | null = null;
	beforeEach(() => {
		seen = [];
		stop = observeResponses((method, path, result) => {
			if (result.status >= 500 && !deliberate.some((name) => result.text.startsWith(`{"type":"/problems/${name}"`)))
				seen.push(`${method} ${path} → ${result.status} ${result.text}`);
		});
	});
	afterEach(() => {
		stop?.();
		stop = null;
		expect(seen, "responses with a 5xx status").toEqual([]);
	});
}
