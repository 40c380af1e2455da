/** The key a host makes on its first run, so agents can connect at once: one algorithm for every host. */
import { generateKey } from "../core/keys";
import type { AgentKey, RevisionGuardSettings } from "../settings";

/** When there is no key at all, adds one named "agent" (or "agent-2"… when `taken` has the name) and returns it. */
export function addFirstKey(settings: RevisionGuardSettings, taken: readonly string[] = []): AgentKey | null {
	if (settings.keys.length > 0) return null;
	let name = "agent";
	for (let n = 2; taken.includes(name); n++) name = `agent-${n}`;
	const key = { name, key: generateKey(), created: new Date().toISOString() };
	settings.keys.push(key);
	return key;
}
