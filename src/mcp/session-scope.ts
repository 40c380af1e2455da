/**
 * The scope an MCP caller is held to, looked up at each call from the key that opened its session (by the key's
 * client id): a session lives across requests, and the person may narrow the key's lists, or revoke it, meanwhile.
 * A key no longer there, or whose lists no longer compile, sees nothing: never the scope it had, never a default.
 */
import { noAccessScope, type KeyScope } from "../core/key-scope";
import { clientIdOf } from "../http/security";
import type { AgentNotes } from "../service/notes/agent-notes";

export function scopeOfOwner(notes: AgentNotes, owner: string, name: string): KeyScope {
	const key = notes.settings().keys.find((candidate) => clientIdOf(candidate.key) === owner);
	const compiled = key === undefined ? null : notes.keyScope(key);
	return compiled?.ok ? compiled.scope : noAccessScope(name);
}
