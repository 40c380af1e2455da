/**
 * Every error the API can return, as RFC 9457 problem details. Each type is a relative URI that this server also
 * serves (GET /problems/{name}), so an agent that meets an unfamiliar problem can look up what to do. Each body also
 * carries the Local REST API's `errorCode` and `message` (see lraFields), which its clients show instead.
 */
import { LRA_ERROR_CODES } from "./lra-error-codes";
import type { ApiResponse, JsonValue } from "./response";
import { PROBLEM_TYPES, type ProblemName, type ProblemType } from "./problem-types";

export { PROBLEM_TYPES, problemOf, type ProblemName } from "./problem-types";

export const PROBLEM_CONTENT_TYPE = "application/problem+json; charset=utf-8";

/** Builds a problem response. `detail` says what happened to this request and what to do next. */
export function problem(
	name: ProblemName,
	detail: string,
	extra: Record<string, JsonValue | undefined> = {},
	headers: Record<string, string> = {},
): ApiResponse {
	const type = PROBLEM_TYPES[name];
	return {
		status: type.status,
		headers,
		contentType: PROBLEM_CONTENT_TYPE,
		body: {
			type: `/problems/${name}`,
			title: type.title,
			status: type.status,
			detail,
			...lraFields(name, detail),
			...extra,
		},
	};
}

/**
 * What Local REST API clients read from an error: `errorCode` (its five-digit code; status × 100 where it has none
 * of its own; a handler may send a finer one in `extra`) and `message`, which they show cut short (cyanheads'
 * server keeps 200 characters). So `message` starts with what happened and the general next step, then the detail.
 */
export function lraFields(name: ProblemName, detail: string): { errorCode: number; message: string } {
	const type: ProblemType = PROBLEM_TYPES[name];
	const errorCode = (LRA_ERROR_CODES as Partial<Record<ProblemName, number>>)[name] ?? type.status * 100;
	return { errorCode, message: `${type.title}. ${firstSentence(type.howToFix)} ${detail}` };
}

function firstSentence(text: string): string {
	const end = text.search(/\.(\s|$)/);
	return end === -1 ? text : text.slice(0, end + 1);
}

/**
 * A request that cannot go on, thrown from anywhere in a handler (a bad path, a bad body, a missing record) and
 * answered in one place (the server's runHandler): handlers never pass "a result or an early response" around.
 */
export class Problem extends Error {
	constructor(readonly response: ApiResponse) {
		super(`a ${response.status} answer`);
		this.name = "Problem";
	}
}

/** Stops the request with this problem (see Problem). */
export function refuse(
	name: ProblemName,
	detail: string,
	extra: Record<string, JsonValue | undefined> = {},
	headers: Record<string, string> = {},
): never {
	throw new Problem(problem(name, detail, extra, headers));
}
