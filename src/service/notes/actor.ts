/**
 * Who is acting, in one model: the person in Obsidian (the merge modal), or an agent known by its key. Nothing is
 * decided by a name, so a key may be named anything, "you" included.
 */
import type { KeyScope } from "../../core/key-scope";
import type { RevisionSource } from "../../core/revision-history";

export interface AgentActor {
	kind: "agent";
	/** The key's name: history, conflict records and answers credit writes to it. */
	name: string;
	/** Who the caller is for implicit tokens (the key, plus the MCP session); absent for callers that have none. */
	client?: string;
	/**
	 * For an MCP caller: the client of its key's plain REST calls. A key is one agent, so what this caller writes over
	 * the revision those calls last read moves their read along (their own agent's change, never anyone else's); see
	 * carryKeyReads in service/write/carry-out.ts.
	 */
	keyClient?: string;
	/**
	 * What the key may see, change and only propose (core/key-scope.ts), compiled from the settings of the key the
	 * caller authenticated with, never from anything in a request. Absent: a caller that is no key (the Obsidian CLI
	 * naming no key, tests), which may do what every key could before scopes. AgentNotes alone decides with it.
	 */
	scope?: KeyScope;
}

export type Actor = { kind: "person" } | AgentActor;

export const PERSON: Actor = { kind: "person" };

export function agentActor(name: string, client?: string, keyClient?: string, scope?: KeyScope): AgentActor {
	// A key that may do everything carries no scope: nothing to check, as for every key before scopes.
	return {
		kind: "agent",
		name,
		...(client === undefined ? {} : { client }),
		...(keyClient === undefined ? {} : { keyClient }),
		...(scope === undefined || scope.whole ? {} : { scope }),
	};
}

/** How records and the UI name an actor: the key's name, or "you" for the person. */
export function actorLabel(actor: Actor): string {
	return actor.kind === "person" ? "you" : actor.name;
}

/** What revision history credits. */
export function historySource(actor: Actor): RevisionSource {
	return actor.kind === "person" ? { kind: "user" } : { kind: "agent", agent: actor.name };
}

/** The caller whose last reads stand in for a missing If-Match; only agents with a client have one. */
export function clientOf(actor: Actor): string | undefined {
	return actor.kind === "agent" ? actor.client : undefined;
}
