/**
 * Fails any test in which the server answered 5xx: an error path must always be a deliberate problem answer. 501 is
 * the one deliberate 5xx (a feature this host does not have, such as Dataview headless); a crash is always a 500.
 */
import { afterEach, beforeEach, expect } from "vitest";
import { observeResponses } from "./http-client";

export function forbidServerErrors(): void {
	let seen: string[] = [];
	let stop: (() => void) | null = null;
	beforeEach(() => {
		seen = [];
		stop = observeResponses((method, path, result) => {
			if (result.status >= 500 && result.status !== 501) seen.push(`${method} ${path} → ${result.status} ${result.text}`);
		});
	});
	afterEach(() => {
		stop?.();
		stop = null;
		expect(seen, "responses with a 5xx status").toEqual([]);
	});
}
