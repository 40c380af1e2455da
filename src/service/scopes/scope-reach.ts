/**
 * Where a key with scope lists could reach past its globs, which match names: a symbolic link whose name need not
 * say where the note is (headless), the links Obsidian rewrites when a note moves, and the merge bases every note
 * shares. Each answer is for a caller without lists too: it has nothing to be kept from.
 */
import type { ScopeForbidden } from "../../core/scope-refusal";
import type { HostKind } from "../notes/agent-notes";
import type { VaultGateway } from "../../vault/gateway";
import type { NoteIndex } from "../../vault/note-index";
import { sinceArrival } from "../history/note-history";
import type { Actor } from "../notes/actor";
import type { RevisionHistory } from "../stores/revision-history";
import type { ScopeGate } from "./scope-gate";
import type { WriteRequest } from "../write/write-request";

export interface ScopeReachDeps {
	gateway: VaultGateway;
	index: NoteIndex;
	history: RevisionHistory;
	host: HostKind;
}

export class ScopeReach {
	constructor(
		private readonly deps: ScopeReachDeps,
		private readonly scopes: ScopeGate,
	) {}

	/** Whether a path may go through a symbolic link that matters to the caller: it has lists, and the host links. */
	linksMatter(actor: Actor): boolean {
		return this.deps.gateway.throughLink !== undefined && this.scopes.scopeOf(actor) !== null;
	}

	/**
	 * Why `path` is not there for the caller when it goes through a symbolic link (the headless host follows those
	 * inside the folder): a key's globs match the link's name, which need not say where the note is. Null when it
	 * does not, or the caller has no lists.
	 */
	async throughLink(actor: Actor, path: string): Promise<ScopeForbidden | null> {
		if (!this.linksMatter(actor)) return null;
		return (await this.deps.gateway.throughLink!(path)) ? this.scopes.linkRefusal(actor, path) : null;
	}

	/**
	 * Inside Obsidian a move rewrites the links of the notes that link to the note: each of them (and each of
	 * `rewritten`, the notes an undone move had rewritten) must be one the caller may change.
	 */
	async relinkRefusal(actor: Actor, path: string, rewritten: readonly string[] = []): Promise<ScopeForbidden | null> {
		if (this.scopes.scopeOf(actor) === null) return null;
		const linking = this.deps.host === "obsidian" ? (await this.deps.index.links(path, [], () => true)).backlinks : [];
		return this.scopes.relinkRefusal(actor, path, [...linking, ...rewritten]);
	}

	/**
	 * A write by a key with lists, held to its note's own revisions as bases (WriteRequest.mayUseBase): the If-Match
	 * it sends picks the base a merge, a refusal's diff and a stale patch's kept body start from. Others as they are.
	 */
	holdToOwnBases(request: WriteRequest): WriteRequest {
		if (this.scopes.scopeOf(request.actor) === null) return request;
		// Worked out only if asked: a write whose If-Match is current uses no base at all.
		let known: ((revision: string) => boolean) | undefined;
		const mayUseBase = (revision: string) => (known ??= this.revisionsKnownTo(request.actor, request.path))(revision);
		return { ...request, mayUseBase };
	}

	/**
	 * The revisions a diff of `path` may start or end at for the caller: any kept one for a caller without lists; for
	 * a key with lists, only the note's own since it last came from a path the key may not see. The base store is
	 * shared by every note, so a revision of a hidden note's text (a guess of it, say) must not be diffed against.
	 */
	revisionsKnownTo(actor: Actor, path: string): (revision: string) => boolean {
		if (this.scopes.scopeOf(actor) === null) return () => true;
		const entries = sinceArrival(this.deps.history.entries(path), this.scopes.visibility(actor));
		const revisions = new Set(entries.map((entry) => entry.revision));
		return (revision) => revisions.has(revision);
	}
}
