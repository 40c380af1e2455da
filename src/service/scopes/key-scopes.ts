/**
 * Each configured key's scope, compiled from its settings when first asked and again whenever its lists change (the
 * settings tab and the headless key reload edit them while the host runs). A key whose lists do not compile is not
 * served: asking for its scope answers the problem, never a default, so no mistake in settings widens what a key may do.
 */
import { compileKeyScope, SCOPE_FIELDS, type CompiledScope, type ScopeProblem } from "../../core/key-scope";
import type { AgentKey } from "../../settings";

export class KeyScopes {
	/** By key object: each remembers the lists it was compiled from, so an edit in place is seen. */
	private readonly compiled = new WeakMap<AgentKey, { signature: string; result: CompiledScope }>();

	constructor(private readonly caseInsensitive: () => boolean) {}

	/** The key's compiled scope, or the problem that keeps it from being served. */
	of(key: AgentKey): CompiledScope {
		const signature = signatureOf(key, this.caseInsensitive());
		const cached = this.compiled.get(key);
		if (signature !== null && cached?.signature === signature) return cached.result;
		const result = compileKeyScope(
			key.name,
			{ read: key.read, write: key.write, propose: key.propose },
			{ caseInsensitive: this.caseInsensitive() },
		);
		if (signature !== null) this.compiled.set(key, { signature, result });
		return result;
	}

	/**
	 * The scope of the keys named `name` (a caller that names itself, not one that presents a key): null when no key
	 * has that name. Two keys sharing a name with different lists name no scope the caller could be held to, so that
	 * is a problem too, never the wider of the two.
	 */
	ofName(keys: readonly AgentKey[], name: string): CompiledScope | null {
		const named = keys.filter((key) => key.name === name).map((key) => this.of(key));
		const first = named[0];
		if (first === undefined) return null;
		const failed = named.find((compiled) => !compiled.ok);
		if (failed !== undefined) return failed;
		const lists = (compiled: CompiledScope) => (compiled.ok ? JSON.stringify(compiled.scope.lists) : "");
		if (named.some((compiled) => lists(compiled) !== lists(first)))
			return {
				ok: false,
				problem: {
					key: name,
					field: "read",
					message: `Two keys are named "${name}", with different lists, so which limits apply cannot be told.`,
				},
			};
		return first;
	}
}

/** Why each key with malformed lists cannot be served (empty when every key's lists are valid). */
export function scopeProblems(keys: readonly AgentKey[]): ScopeProblem[] {
	const problems: ScopeProblem[] = [];
	for (const key of keys) {
		const compiled = compileKeyScope(
			key.name,
			{ read: key.read, write: key.write, propose: key.propose },
			{ caseInsensitive: false },
		);
		if (!compiled.ok) problems.push(compiled.problem);
	}
	return problems;
}

/**
 * What a key's lists are, cheaply (its name too, which refusals quote), or null for lists that are not lists of text:
 * those are malformed, and compiled again each time they are asked for, which only ever answers the same problem.
 */
function signatureOf(key: AgentKey, caseInsensitive: boolean): string | null {
	let signature = (caseInsensitive ? "i" : "s") + key.name;
	for (const field of SCOPE_FIELDS) {
		const list = key[field];
		if (list === undefined) signature += "\u0001-";
		else if (Array.isArray(list) && list.every((glob) => typeof glob === "string"))
			signature += `\u0001${list.length}\u0002${list.join("\u0002")}`;
		else return null;
	}
	return signature;
}
