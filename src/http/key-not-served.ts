/** The answer to a request made with a key whose scope lists in settings are malformed: the key is not served. */
import type { ScopeProblem } from "../core/key-scope";
import { scopeFacts, scopeNextStep, scopeRuleSentence, type ScopeForbidden } from "../core/scope-refusal";
import { problem } from "./problems";
import type { ApiResponse } from "./response";

export function keyNotServed(scopeProblem: ScopeProblem): ApiResponse {
	const refusal: ScopeForbidden = {
		reason: "scope-forbidden",
		why: "key-not-served",
		key: scopeProblem.key,
		path: null,
		field: scopeProblem.field,
		problem: scopeProblem.message,
	};
	return problem(
		"scope-forbidden",
		`${scopeRuleSentence(refusal)} Nothing was read or written. ${scopeNextStep(refusal)}`,
		scopeFacts(refusal),
	);
}
