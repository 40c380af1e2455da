/**
 * The application service every agent entry point calls (REST handlers, MCP tools): operations, not parts. It
 * alone decides what serving a note to an agent means (which reads count, the read ledger, merge bases, diff bounds,
 * long-polls), and it is the only way to a write: the gateway, tracker, base store and read ledger are not
 * reachable through it, so every write goes through the one guarded writer by construction.
 */
import type { StartupReadiness } from "../revisions/startup-readiness";
import type { BaseStore } from "../stores/base-store";
import type { ConflictRecord, ConflictStatus } from "../../core/conflicts";
import type { ConflictLog } from "../stores/conflict-log";
import type { Page } from "../../core/diff/page";
import type { PathPolicy } from "../../core/path";
import type { HeldRead, ReadLedger } from "../stores/read-ledger";
import type { RevisionHistory } from "../stores/revision-history";
import { revisionOf, type EntityTagCondition } from "../../core/revision";
import { noneMatchSight, tokenKind, type Sight } from "../../core/revision-tokens";
import type { Timers } from "../../core/timers";
import type { RevisionGuardSettings } from "../../settings";
import type { NoteStat, VaultGateway } from "../../vault/gateway";
import type { AgentActor } from "./actor";
import type { ConflictResolver, ConflictSides, SaveOutcome } from "../conflicts/conflict-resolver";
import type { ConflictWaits, WaitOutcome } from "../conflicts/conflict-waits";
import { diffCapBytes, type DiffPages } from "../history/diff-pages";
import { listFolder, type ListedEntry } from "./folder-listing";
import type {
	CopyOutcome,
	CopyRequest,
	GuardedWriter,
	MoveOutcome,
	MoveRequest,
	WriteOutcome,
	WriteRequest,
} from "../write/guarded-writer";
import type { RevisionTracker } from "../revisions/revision-tracker";
import type { MergeResult } from "../../core/merge";
import { NoteChangeFeed, type NoteChange } from "../revisions/note-change-feed";
import { notePage, type NotePage } from "./note-pages";
import type { AgentActivity } from "../history/agent-activity";
import { MergeModalHook } from "../conflicts/merge-modal-hook";
import type { NoteHistoryService } from "../history/note-history";
import { UndoNotes } from "../history/undo-notes";
import type { NoteIndex } from "../../vault/note-index";
import { NoteFacts } from "./note-facts";
import { NoteSearch } from "../search/note-search";
import { yieldVia, type YieldToHost } from "../../core/steps";
import { validateVaultPath } from "../../core/path";
import type { HostWorkspace } from "../../vault/workspace";
import { CommandRuns } from "./command-runs";
import { ScopedFacts, ScopedSearch } from "../search/scoped-search";
import { PeriodicNotes } from "./periodic-notes";
import { NoteProposals } from "../proposals/note-proposals";
import { ProposalNotMade, type ProposalStore } from "../proposals/proposal-store";
import type { AgentKey } from "../../settings";
import type { CompiledScope } from "../../core/key-scope";
import type { ScopeForbidden } from "../../core/scope-refusal";
import { KeyScopes } from "../scopes/key-scopes";
import { ScopeGate, type ChangeGate } from "../scopes/scope-gate";
import { ScopeReach } from "../scopes/scope-reach";
import { summarizeScope, type ScopeSummary } from "../scopes/scope-summary";
import type { ProposalSink } from "../proposals/proposal-sink";
import { refusedWithout } from "../refusals/refusal";
import { relocationRefused } from "../refusals/relocation-report";
import type { Actor } from "./actor";

export type { NoteChange } from "../revisions/note-change-feed";

/** `sight`: how much of the note the answer shows, which decides the token it may hand out (core/revision-tokens). */
export type NoteRead =
	| { kind: "missing" }
	/**
	 * The note still matches the client's If-None-Match: nothing was shown, so nothing counts as read, and the answer
	 * hands back only the form of the revision the client already had (`sight`).
	 */
	| { kind: "not-modified"; path: string; revision: string; stat: NoteStat; sight: Sight }
	| { kind: "read"; path: string; content: string; revision: string; stat: NoteStat; sight: Sight };

export interface ReadOptions {
	/** Only the facts are wanted (HEAD): the content is not shown, so it does not count as read. */
	head?: boolean;
	/**
	 * Only part of the note is shown (a document map, a section): it counts as a read of that part, whose token can
	 * patch the note but never replace or delete it.
	 */
	part?: boolean;
	ifNoneMatch?: EntityTagCondition;
}

export interface ChangesQuery {
	since: string;
	/** Diff to this retained revision instead of the note now (the next page of a long diff). */
	to?: string;
	/** The first diff line to return. */
	offset: number;
	/** How many times the answer carries the page (MCP sends it as text and as structure): each gets a share of the cap. */
	copies?: 1 | 2;
}

/**
 * `to` is the revision the page diffs to, and `revision` the note's now; both come with `sight`, which is what the
 * client has seen of them: the revision it diffed from, plus every change to them, is all of them only when the page
 * holds the whole diff from a revision it had seen whole.
 */
export type ChangesAnswer =
	| { kind: "missing" }
	| { kind: "not-retained"; revision: string }
	| { kind: "diff"; since: string; to: string; revision: string; sight: Sight; changed: boolean; page: Page };

export interface ConflictMerge {
	sides: ConflictSides;
	result: MergeResult;
	text: string;
}

/** Which host serves the vault: Obsidian (the plugin), or a plain folder (the headless host). */
export type HostKind = "obsidian" | "folder";

export interface AgentNotesDeps {
	host: HostKind;
	/** Whether the start-up reconcile has established every note's revision (entry points wait for it). */
	readiness: StartupReadiness;
	gateway: VaultGateway;
	/** Where the forms of a revision handed to agents (part tokens, change tags) are looked up again. */
	history: RevisionHistory;
	tracker: RevisionTracker;
	bases: BaseStore;
	reads: ReadLedger;
	writer: GuardedWriter;
	conflicts: ConflictLog;
	waits: ConflictWaits;
	resolver: ConflictResolver;
	diffs: DiffPages;
	settings: () => RevisionGuardSettings;
	pathPolicy: () => PathPolicy;
	now: () => number;
	timers: Timers;
	vaultName: string;
	/** Obsidian's version (its apiVersion) inside Obsidian; null on the headless host. */
	appVersion?: string | null;
	noteHistory: NoteHistoryService;
	activity: AgentActivity;
	/** What the host knows about notes beyond their text: tags, links, rendering. */
	index: NoteIndex;
	/** How long work (search) gives the host a turn; by default a zero-delay timer of `timers`. */
	yieldToHost?: YieldToHost;
	/** Obsidian's commands, panes and periodic-notes settings; null headless, where there are none. */
	workspace?: HostWorkspace | null;
	/** Where proposals are kept (issue 24): changes to notes a key may only propose to, waiting for the person. */
	proposalStore: ProposalStore;
	/**
	 * Where a change to a note the key may only propose goes (issue 24): it waits for the person. Null (or absent): this
	 * host takes no proposals, and such a change is refused.
	 */
	proposals?: ProposalSink | null;
	/** The vault's disk treats `A.md` and `a.md` as one file, so scope globs ignore case too. */
	caseInsensitive?: boolean;
}

export class AgentNotes {
	readonly vaultName: string;
	/** Obsidian's version inside Obsidian (GET / tells it, as the Local REST API does); null headless. */
	readonly appVersion: string | null;
	/** Which host serves the vault, so answers speak of what it has (Obsidian's settings and merge view, or none). */
	readonly hostName: HostKind;
	/** Until the host's start-up reconcile is done, entry points answer "starting up, retry" to anything about notes. */
	readonly readiness: StartupReadiness;
	readonly now: () => number;
	readonly timers: Timers;
	readonly settings: () => RevisionGuardSettings;
	readonly pathPolicy: () => PathPolicy;
	private readonly changeFeed: NoteChangeFeed;
	/** History and undo: a person's (or an agent's) way back from any agent write. */
	readonly undo: UndoNotes;
	/** How the host shows a conflict in its merge modal (Obsidian offers one; headless does not). */
	readonly mergeModal = new MergeModalHook();
	/** Tags, links and rendering: what agents may learn about notes besides their text (of the notes they may see). */
	readonly facts: ScopedFacts;
	/** Simple, JsonLogic and Dataview search: parts of notes, never a revision (service/search/note-search.ts), in the caller's scope. */
	readonly search: ScopedSearch;
	/** Periodic notes (/periodic/{period}/): which note a period names for a day, and creating it from its template. */
	readonly periodic: PeriodicNotes;
	/** Obsidian commands, run only by keys the person allowed, every change credited to the key. */
	readonly commands: CommandRuns;
	/** Proposals: an agent's own, and its wait for the decision; the person's review, accept and reject. */
	readonly proposals: NoteProposals;
	/** What each key may see, change and propose (service/scopes/scope-gate.ts): asked before anything reaches the vault. */
	private readonly scopes: ScopeGate;
	/** Where a key with lists could reach past its globs (links, symbolic links, shared bases), and the rules against it. */
	private readonly reach: ScopeReach;
	private readonly keyScopes: KeyScopes;

	constructor(private readonly deps: AgentNotesDeps) {
		this.scopes = new ScopeGate(deps.settings);
		this.reach = new ScopeReach(deps, this.scopes);
		this.keyScopes = new KeyScopes(() => deps.caseInsensitive === true);
		this.vaultName = deps.vaultName;
		this.appVersion = deps.appVersion ?? null;
		this.hostName = deps.host;
		this.readiness = deps.readiness;
		this.now = deps.now;
		this.timers = deps.timers;
		this.settings = deps.settings;
		this.pathPolicy = deps.pathPolicy;
		this.changeFeed = new NoteChangeFeed(deps.gateway, deps.timers);
		this.undo = new UndoNotes({
			history: deps.history,
			noteHistory: deps.noteHistory,
			activity: deps.activity,
			changeFeed: this.changeFeed,
			scopes: this.scopes,
			relinkRefusal: (actor, path, rewritten) => this.reach.relinkRefusal(actor, path, rewritten),
			throughLink: (actor, path) => this.reach.throughLink(actor, path),
		});
		this.facts = new ScopedFacts(
			new NoteFacts({ index: deps.index, pathPolicy: deps.pathPolicy, settings: deps.settings }),
			this.scopes,
			async (path) => (await deps.gateway.read(path))?.content ?? null,
		);
		const search = new NoteSearch({
			gateway: deps.gateway,
			pathPolicy: deps.pathPolicy,
			settings: deps.settings,
			yieldToHost: deps.yieldToHost ?? yieldVia(deps.timers),
			linkableFiles: deps.index.linkableFiles?.bind(deps.index),
		});
		this.search = new ScopedSearch(search, this.scopes);
		const workspace = deps.workspace ?? null;
		this.periodic = new PeriodicNotes({
			workspace,
			settings: deps.settings,
			pathPolicy: deps.pathPolicy,
			now: deps.now,
			exists: async (path) => (await deps.gateway.stat(path)) !== null,
			readText: async (path) => (await deps.gateway.read(path))?.content ?? null,
			write: (request) => this.write(request),
			recordPartRead: (actor, path, revision) => this.recordRead(actor, path, revision, "part"),
			scopes: this.scopes,
		});
		const isNote = (path: string) => validateVaultPath(path, deps.pathPolicy(), "note").ok;
		const store = deps.proposalStore;
		this.proposals = new NoteProposals({
			store,
			log: store.log,
			gateway: deps.gateway,
			bases: deps.bases,
			waits: deps.waits,
			write: (request) => this.write(request),
			visibility: (actor) => this.scopes.visibility(actor),
			trashBackupAfterAccept: () => deps.settings().backupAfterResolve === "trash",
			saved: () => store.saved(),
			now: deps.now,
		});
		this.commands = new CommandRuns({
			workspace,
			gateway: deps.gateway,
			history: deps.history,
			bases: deps.bases,
			tracker: deps.tracker,
			writer: deps.writer,
			settings: deps.settings,
			timers: deps.timers,
			isNote,
			scopeRefusal: (actor) => this.scopes.commandRefusal(actor),
		});
	}

	/**
	 * A key's scope from its settings, for the entry points that authenticated it: the scope its callers carry
	 * (AgentActor.scope), or why the key is not served (its lists are malformed). Never a default in its place.
	 */
	keyScope(key: AgentKey): CompiledScope {
		return this.keyScopes.of(key);
	}

	/**
	 * The scope of the key named `name`, for a caller that names itself (the Obsidian CLI's agent=) rather than
	 * presenting a key: null when no key has that name. Two keys sharing a name with different lists name no scope the
	 * caller could be held to, so that is a problem too, never the wider of the two.
	 */
	scopeOfName(name: string): CompiledScope | null {
		return this.keyScopes.ofName(this.settings().keys, name);
	}

	/**
	 * What `key`'s lists mean in this vault now (settings tab): how many of the notes agents are served it can see,
	 * change and only propose changes to (.bak notes aside), counted in slices; or why the key is not served.
	 */
	scopeSummary(key: AgentKey): Promise<ScopeSummary> {
		const { gateway, settings, pathPolicy, timers } = this.deps;
		return summarizeScope(
			{
				gateway,
				settings,
				pathPolicy,
				scopes: this.scopes,
				keyScopes: this.keyScopes,
				yieldToHost: this.deps.yieldToHost ?? yieldVia(timers),
			},
			key,
		);
	}

	/** Opens a note in an Obsidian pane (not a write: nothing is created); "unavailable" headless. */
	async openNote(actor: Actor, path: string, newLeaf: boolean): Promise<"opened" | "missing" | "unavailable"> {
		const workspace = this.deps.workspace;
		if (!workspace) return "unavailable";
		if (!this.scopes.visible(actor, path)) return "missing";
		return (await workspace.openNote(path, newLeaf)) ? "opened" : "missing";
	}

	/**
	 * A note for an agent. Only a read that shows the content counts as having read it: it is kept as a merge base,
	 * its time starts the read validity window, and it becomes the agent's implicit token for a tokenless write.
	 */
	async read(actor: AgentActor, path: string, options: ReadOptions = {}): Promise<NoteRead> {
		// Outside the key's read list a note does not exist for it: nothing is read, so nothing of it can show.
		if (!this.scopes.visible(actor, path)) return { kind: "missing" };
		// Asked only of a key with lists: every other read goes straight on (reads are the hottest path).
		if (this.reach.linksMatter(actor) && (await this.reach.throughLink(actor, path)) !== null)
			return { kind: "missing" };
		const snapshot = await this.deps.gateway.read(path);
		if (!snapshot) {
			// Whatever this client read of the note is gone with it: creating it again needs no token.
			if (actor.client !== undefined) this.deps.reads.forget(actor.client, path);
			return { kind: "missing" };
		}
		const current = revisionOf(snapshot.content);
		const { ifNoneMatch } = options;
		const unchanged =
			ifNoneMatch === undefined ? null : ifNoneMatch.kind === "any" ? "none" : noneMatchSight(ifNoneMatch, current);
		if (unchanged !== null)
			return { kind: "not-modified", path: snapshot.path, revision: current, stat: snapshot.stat, sight: unchanged };
		const sight: Sight = options.head ? "none" : options.part ? "part" : "whole";
		if (sight !== "none") {
			await this.deps.tracker.served(snapshot, current);
			this.recordRead(actor, snapshot.path, current, sight);
		}
		return {
			kind: "read",
			path: snapshot.path,
			content: snapshot.content,
			revision: current,
			stat: snapshot.stat,
			sight,
		};
	}

	/**
	 * A folder's contents as the caller may see them, each note with its revision (a listing is not a read). A folder
	 * no glob of its key's read list reaches into is not there for it (null), and is left out of its parent's listing.
	 */
	async listFolder(actor: Actor, folder: string): Promise<ListedEntry[] | null> {
		if (!this.scopes.folderVisible(actor, folder) || (await this.reach.throughLink(actor, folder)) !== null)
			return null;
		const listed = await listFolder(this.deps.gateway, this.pathPolicy(), folder);
		const visible = this.scopes.visibility(actor);
		return (
			listed?.filter((entry) =>
				entry.type === "folder" ? this.scopes.folderVisible(actor, entry.path) : visible(entry.path),
			) ?? null
		);
	}

	/** What changed since a revision the agent saw: a page of the diff to the note now (or to `to`). */
	async changes(actor: Actor, path: string, query: ChangesQuery): Promise<ChangesAnswer> {
		if (!this.scopes.visible(actor, path) || (await this.reach.throughLink(actor, path)) !== null)
			return { kind: "missing" };
		const { gateway, bases, tracker, diffs, history } = this.deps;
		const snapshot = await gateway.read(path);
		if (!snapshot) return { kind: "missing" };
		// `since` and `to` may be any form a client was handed (a change tag from a listing, a page's `to`).
		const since = history.revisionNamed(path, query.since) ?? query.since;
		const known = this.reach.revisionsKnownTo(actor, path);
		const base = known(since) ? await bases.get(since) : null;
		if (base === null) return { kind: "not-retained", revision: query.since };
		// The answer may name the note's current revision, which the agent may write with: that counts as serving it.
		const revision = await tracker.served(snapshot);
		let to = { revision, content: snapshot.content };
		const wantedTo = query.to === undefined ? undefined : (history.revisionNamed(path, query.to) ?? query.to);
		if (wantedTo !== undefined && wantedTo !== revision) {
			const content = known(wantedTo) ? await bases.get(wantedTo) : null;
			if (content === null) return { kind: "not-retained", revision: query.to! };
			to = { revision: wantedTo, content };
		}
		const maxBytes = diffCapBytes(this.settings()) / (query.copies ?? 1);
		const page = await diffs.page({
			path,
			from: { revision: since, content: base },
			to,
			offset: query.offset,
			maxBytes,
		});
		const whole = query.offset === 0 && page.nextOffset === null && !page.lineCut;
		const sinceSight = tokenKind(query.since);
		const sight: Sight = whole && sinceSight !== "tag" ? sinceSight : "none";
		return {
			kind: "diff",
			since: query.since,
			to: to.revision,
			revision,
			sight,
			changed: since !== revisionOf(to.content),
			page,
		};
	}

	/** The read a tokenless write from `actor` is held to, as of now: capture it when the request arrives. */
	holdRevision(actor: AgentActor, path: string): HeldRead | null {
		return this.deps.writer.heldRevision(actor.client, path);
	}

	/**
	 * The one way to change a note. Followed, so the change it makes is credited to its actor (`onNoteChanged`). The
	 * key's scope is checked first: a change it may not make is refused before the note is looked at, and one it may
	 * only propose goes to the proposals (the note is not touched), or is refused on a host that takes none.
	 */
	write(request: WriteRequest): Promise<WriteOutcome> {
		const gate = this.scopes.change(
			request.actor,
			request.path,
			request.operation.kind === "delete" ? "other" : "content",
		);
		if (gate.kind === "refuse") return Promise.resolve(refusedWithout(gate.refusal, null));
		// Only a key with lists, on a host with links, waits for the look: every other write goes straight on.
		if (this.reach.linksMatter(request.actor))
			return this.reach
				.throughLink(request.actor, request.path)
				.then((linked) => (linked === null ? this.gatedWrite(request, gate) : refusedWithout(linked, null)));
		return this.gatedWrite(request, gate);
	}

	private gatedWrite(request: WriteRequest, gate: Exclude<ChangeGate, { kind: "refuse" }>): Promise<WriteOutcome> {
		if (gate.kind === "propose")
			return this.deps.proposals
				? proposeOrAnswer(this.deps.proposals, request)
				: Promise.resolve(refusedWithout(gate.refusal, null));
		const written = this.deps.writer.write(this.reach.holdToOwnBases(request));
		// Before the answer: the next read of tags or links sees this write (a folder's watcher leaves ours out).
		written.then(
			() => this.facts.changed(request.path),
			() => undefined,
		);
		return this.changeFeed.track(request.path, request.actor, written);
	}

	/**
	 * Moves (renames) a note, guarded: it needs the note's whole revision, and never replaces a note at the destination
	 * without that note's revision (guarded-move.ts). Followed like a write: the note's old and new paths and the notes
	 * Obsidian rewrote links in are credited to the mover.
	 */
	async move(request: MoveRequest): Promise<MoveOutcome> {
		// A note the key may not see is not there to move; both notes must be ones it may change (a proposal carries no move).
		if (!this.scopes.visible(request.actor, request.from)) return { kind: "missing" };
		if ((await this.reach.throughLink(request.actor, request.from)) !== null) return { kind: "missing" };
		const refused = (side: "source" | "destination", path: string, refusal: ScopeForbidden) =>
			relocationRefused({ kind: "refused", side, path, refusal, currentRevision: null, implicit: false });
		for (const [side, path] of [
			["source", request.from],
			["destination", request.to],
		] as const) {
			const gate = this.scopes.change(request.actor, path, "other");
			if (gate.kind !== "write") return refused(side, path, gate.refusal);
		}
		const linked = await this.reach.throughLink(request.actor, request.to);
		if (linked !== null) return refused("destination", request.to, linked);
		const relink = await this.reach.relinkRefusal(request.actor, request.from);
		if (relink !== null) return refused("source", request.from, relink);
		return this.changeFeed.trackMany(
			[request.from, request.to],
			request.actor,
			this.deps.writer.move(request),
			(outcome) =>
				outcome.kind === "moved"
					? [
							{ path: outcome.from, revision: null },
							{ path: outcome.to, revision: outcome.revision },
							...outcome.rewritten,
						]
					: [],
		);
	}

	/** Copies a note to a new path (guarded-copy.ts), followed like a write of the destination. */
	async copy(request: CopyRequest): Promise<CopyOutcome> {
		// Copying reads the source (it must be one the key may see) and writes the destination (one it may change).
		if (!this.scopes.visible(request.actor, request.from)) return { kind: "missing" };
		if ((await this.reach.throughLink(request.actor, request.from)) !== null) return { kind: "missing" };
		const gate = this.scopes.change(request.actor, request.to, "other");
		const refusal = gate.kind === "write" ? await this.reach.throughLink(request.actor, request.to) : gate.refusal;
		if (refusal !== null)
			return relocationRefused({
				kind: "refused",
				side: "destination",
				path: request.to,
				refusal,
				currentRevision: null,
				implicit: false,
			});
		return this.changeFeed.trackMany([request.to], request.actor, this.deps.writer.copy(request), (outcome) =>
			outcome.kind === "copied" ? [{ path: outcome.to, revision: outcome.revision }] : [],
		);
	}

	/**
	 * Every change to a note `wants` that `watcher` may see (by anyone: the person, another program, an agent), with
	 * the revision it left and the actor whose write through this service made it (null for anyone else). Returns the
	 * unsubscriber. A note hidden from the watcher's key is never told of, whatever `wants` says.
	 */
	onNoteChanged(
		watcher: () => Actor,
		listener: (change: NoteChange) => void,
		wants: (path: string) => boolean = () => true,
	): () => void {
		// The watcher is asked at each change: a key's scope narrowed in settings applies to the changes that follow.
		return this.changeFeed.subscribe(listener, (path) => wants(path) && this.scopes.visible(watcher(), path));
	}

	/**
	 * A page of every note the tools would serve the caller (the path policy of list_notes and its key's scope), after
	 * `after`; not a read.
	 */
	notePage(actor: Actor, after: string | null, limit: number): Promise<NotePage> {
		return notePage(this.deps.gateway, this.pathPolicy(), after, limit, this.scopes.visibility(actor));
	}

	/** The note open in Obsidian's active editor, if the host has one and the caller may see it. */
	async activeNote(actor: Actor): Promise<string | null> {
		const path = (await this.deps.gateway.activeNote?.()) ?? null;
		return path !== null && this.scopes.visible(actor, path) ? path : null;
	}

	/** The conflict records of notes the caller may see. */
	listConflicts(actor: Actor, filter?: { status?: ConflictStatus }): ConflictRecord[] {
		const visible = this.scopes.visibility(actor);
		return this.deps.conflicts.list(filter).filter((record) => visible(record.path));
	}

	/** A conflict record, when its note is one the caller may see. */
	conflict(actor: Actor, id: string): ConflictRecord | undefined {
		const record = this.deps.conflicts.get(id);
		return record !== undefined && this.scopes.visible(actor, record.path) ? record : undefined;
	}

	/** Waits (bounded per caller and in all) until a conflict is no longer open, or `ms` pass. */
	awaitConflictStatus(record: ConflictRecord, ms: number, caller: string, signal?: AbortSignal): Promise<WaitOutcome> {
		return this.deps.waits.wait(record, ms, caller, signal);
	}

	/** A conflict's automatic merge now; it shows the note with its revision, so the note counts as served. */
	async conflictMerge(actor: Actor, id: string, diff3: boolean): Promise<ConflictMerge | null> {
		if (this.conflict(actor, id) === undefined) return null;
		const preview = await this.deps.resolver.preview(id, diff3);
		if (preview?.sides.mine != null)
			await this.deps.tracker.served({ path: preview.sides.record.path, content: preview.sides.mine });
		return preview;
	}

	/**
	 * The person's resolution of a conflict, chosen in the agent's client (MCP elicitation): written as the person,
	 * replacing exactly `mineRevision`, so a note that moved on meanwhile is never overwritten ("changed").
	 */
	async resolveAsPerson(id: string, text: string, mineRevision: string | null): Promise<SaveOutcome> {
		const path = this.deps.conflicts.get(id)?.path;
		const saved = await this.deps.resolver.save(id, text, mineRevision);
		// Told from here as well as by the vault's own events, which a folder watcher may miss.
		if (saved.kind === "saved" && path !== undefined) this.changeFeed.changed(path);
		return saved;
	}

	/** The person chose to keep the note as it is: the conflict is dismissed, the agent's .bak stays. */
	dismissAsPerson(id: string): void {
		this.deps.resolver.dismiss(id);
	}

	/**
	 * The client was shown the whole note as its write left it (a PATCH answered with the patched note, as the Local
	 * REST API answers): that counts as its read of all of it, so a tokenless PUT is held to it like any whole read.
	 */
	shownWhole(actor: AgentActor, path: string, revision: string): void {
		this.recordRead(actor, path, revision, "whole");
	}

	/** A client that is gone (an ended MCP session) leaves no implicit tokens behind. */
	forgetClient(client: string): void {
		this.deps.reads.forgetClient(client);
	}

	private recordRead(actor: AgentActor, path: string, revision: string, sight: "whole" | "part"): void {
		if (actor.client !== undefined) this.deps.reads.record(actor.client, path, revision, this.now(), sight);
	}
}

/**
 * A change the key may only propose: kept for the person, or, when there is nothing to propose (a patch that does
 * not apply, an empty body over a note, a malformed token…), answered as the writer would have answered it.
 */
async function proposeOrAnswer(sink: ProposalSink, request: WriteRequest): Promise<WriteOutcome> {
	try {
		return await sink.propose(request);
	} catch (error) {
		if (error instanceof ProposalNotMade) return error.outcome;
		throw error;
	}
}
