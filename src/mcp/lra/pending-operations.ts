/**
 * The service operations five Local REST API tools need that this build's AgentNotes does not offer yet: search
 * (JsonLogic and simple), the tag list, and guarded move and copy, each built on its own branch of issue 23. The
 * tools (pending-tools.ts) are written against this interface and answer "not available in this build" until an
 * operation is wired here, which is the one place to change when those services land.
 */
import type { AgentActor } from "../../service/actor";
import type { AgentNotes } from "../../service/agent-notes";

/** What a tool answers once the operation exists: the Local REST API's JSON, or a refusal in words. */
export type PendingAnswer = { ok: true; value: unknown } | { ok: false; message: string };

export interface LraPendingOperations {
	/** search_query: `[{filename, result}]` for the notes whose metadata the JsonLogic query finds truthy. */
	searchQuery?(actor: AgentActor, query: unknown): Promise<PendingAnswer>;
	/** search_simple: `[{filename, score, matches: [{match: {start, end}, context}]}]`, best first. */
	searchSimple?(actor: AgentActor, query: string, contextLength: number): Promise<PendingAnswer>;
	/** tag_list: `{tags: [{name, count}]}`. */
	tagList?(actor: AgentActor): Promise<PendingAnswer>;
	/** vault_move: `{message: "OK", oldPath, newPath}`; guarded (the source needs this session's read of it). */
	move?(actor: AgentActor, path: string, destination: string, allowOverwrite: boolean): Promise<PendingAnswer>;
	/** vault_copy: `{message: "OK", sourcePath, newPath}`; a destination that exists is never overwritten unread. */
	copy?(actor: AgentActor, path: string, destination: string, allowOverwrite: boolean): Promise<PendingAnswer>;
}

/** None yet in this build: wire each operation to its AgentNotes service when it exists. */
export function pendingOperations(_notes: AgentNotes): LraPendingOperations {
	return {};
}
