/**
 * Who is acting, in one model: the person in Obsidian (the merge modal), or an agent known by its key. Nothing is
 * decided by a name, so a key may be named anything, "you" included.
 */
import type { RevisionSource } from "../core/revision-history";

export interface AgentActor {
	kind: "agent";
	/** The key's name: history, conflict records and answers credit writes to it. */
	name: string;
	/** Who the caller is for implicit tokens (the key, plus the MCP session); absent for callers that have none. */
	client?: string;
}

export type Actor = { kind: "person" } | AgentActor;

export const PERSON: Actor = { kind: "person" };

export function agentActor(name: string, client?: string): AgentActor {
	return client === undefined ? { kind: "agent", name } : { kind: "agent", name, client };
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
