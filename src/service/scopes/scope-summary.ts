/**
 * What a key's lists mean in this vault, for the person editing them: how many notes the key can see, change, and
 * only propose changes to. Counted a slice at a time, so a vault of a hundred thousand notes never freezes Obsidian
 * while the settings tab waits for the answer.
 */
import { isBackupPath } from "../../core/conflicts";
import type { Access, ScopeProblem } from "../../core/key-scope";
import { validateVaultPath, type PathPolicy } from "../../core/path";
import { finishInSlices, type Steps, type YieldToHost } from "../../core/steps";
import type { AgentKey, RevisionGuardSettings } from "../../settings";
import type { VaultGateway } from "../../vault/gateway";
import { agentActor } from "../notes/actor";
import type { KeyScopes } from "./key-scopes";
import type { ScopeGate } from "./scope-gate";

export type ScopeSummary =
	| { kind: "not-served"; problem: ScopeProblem }
	| { kind: "counted"; notes: number; see: number; change: number; propose: number };

export interface AccessCounts {
	notes: number;
	see: number;
	change: number;
	propose: number;
}

/** Counts what `accessOf` says of each path, giving the host a turn between slices (`sliceMs`: tests pass 0). */
export function countAccess(
	paths: readonly string[],
	accessOf: (path: string) => Access,
	yieldToHost: YieldToHost,
	sliceMs?: number,
): Promise<AccessCounts> {
	return finishInSlices(countSteps(paths, accessOf), yieldToHost, sliceMs);
}

function* countSteps(paths: readonly string[], accessOf: (path: string) => Access): Steps<AccessCounts> {
	const counts = { notes: paths.length, see: 0, change: 0, propose: 0 };
	for (const [index, path] of paths.entries()) {
		const access = accessOf(path);
		if (access !== "hidden") counts.see++;
		if (access === "write") counts.change++;
		if (access === "propose") counts.propose++;
		// A step every 256 notes: the slice clock is read that often, never per note.
		if (index % 256 === 255) yield;
	}
	return counts;
}

export interface SummaryDeps {
	gateway: VaultGateway;
	settings: () => RevisionGuardSettings;
	pathPolicy: () => PathPolicy;
	scopes: ScopeGate;
	keyScopes: KeyScopes;
	yieldToHost: YieldToHost;
}

/**
 * What `key`'s lists mean in this vault now: how many of the notes agents are served it can see, change and only
 * propose changes to (.bak notes aside, which are copies), or why the key is not served.
 */
export async function summarizeScope(deps: SummaryDeps, key: AgentKey): Promise<ScopeSummary> {
	const compiled = deps.keyScopes.of(key);
	if (!compiled.ok) return { kind: "not-served", problem: compiled.problem };
	const policy = deps.pathPolicy();
	const { backupFolder } = deps.settings();
	const paths = (await deps.gateway.listNotes(policy.noteExtensions)).filter(
		(path) => validateVaultPath(path, policy, "note").ok && !isBackupPath(path, backupFolder),
	);
	const actor = agentActor(key.name, undefined, undefined, compiled.scope);
	return {
		kind: "counted",
		...(await countAccess(paths, (path) => deps.scopes.access(actor, path), deps.yieldToHost)),
	};
}
