/**
 * A note's history for people: its revisions (who, when, the diff to the one before) and Restore, which writes an
 * old revision back through the one guarded writer, so a restore is itself a revision that can be undone. Also
 * keeps undo possible: every write's replaced text is kept as a base, and the texts that recent agent writes and
 * open conflicts need are pinned in the base store (see `isPinned`).
 */
import type { BaseStore } from "../stores/base-store";
import { ANOTHER_PROGRAM } from "../../core/conflicts";
import { type ConflictLog } from "../stores/conflict-log";
import type { Page } from "../../core/diff/page";
import { revisionOf, strongMatch, type EntityTagCondition } from "../../core/revision";
import type { RevisionEntry, RevisionSource } from "../../core/revision-history";
import type { RevisionHistory } from "../stores/revision-history";
import type { RevisionGuardSettings } from "../../settings";
import type { VaultGateway } from "../../vault/gateway";
import type { Actor } from "../notes/actor";
import { AgentWritePins } from "../write/agent-write-pins";
import { diffCapBytes, type DiffPages } from "./diff-pages";
import type { CompletedDelete, CompletedWrite, GuardedWriter, WriteOutcome } from "../write/guarded-writer";

/** One revision as people see it. */
export interface RevisionView {
	revision: string;
	/** ISO 8601 time we first saw it. */
	time: string;
	/** "you", an agent key's name, or "another program". */
	by: string;
	source: RevisionSource["kind"];
	size: number;
	/** Its text is still kept, so it can be shown and restored. */
	restorable: boolean;
	/** It is what the note holds now. */
	current: boolean;
	/** The note was deleted here (`revision` is what the delete removed). */
	deleted: boolean;
	/** The revision before it (what a write through the guarded writer replaced, when known), or null for the first. */
	previous: string | null;
	/** The note was moved here from this path (through the guarded writer); null otherwise. */
	movedFrom: string | null;
}

export interface HistoryPage {
	path: string;
	/** The note's revision now, or null when it no longer exists. */
	currentRevision: string | null;
	total: number;
	offset: number;
	/** Newest first. */
	revisions: RevisionView[];
}

export type RevisionDetail =
	| { kind: "unknown" }
	| { kind: "revision"; view: RevisionView; content: string | null; diff: Page | null; previousRestorable: boolean };

export type RestoreOutcome =
	| { kind: "unknown" }
	| { kind: "not-retained"; revision: string }
	/** The note is not the revision the caller saw: nothing was written (and nothing kept: the text is in history). */
	| { kind: "stale"; currentRevision: string | null }
	| WriteOutcome;

export interface NoteHistoryDeps {
	gateway: VaultGateway;
	history: RevisionHistory;
	bases: BaseStore;
	writer: GuardedWriter;
	conflicts: ConflictLog;
	diffs: DiffPages;
	settings: () => RevisionGuardSettings;
	/** History changed and should be saved. */
	onDirty: () => void;
}

export const MAX_HISTORY_PAGE = 50;

export class NoteHistoryService {
	/** What open conflicts need: worked out again when the conflict log next changes (it holds at most 1000). */
	private conflictPins: Set<string> | null = null;
	/** What the latest agent writes need: kept as writes arrive (see agent-write-pins.ts). */
	private agentPins: AgentWritePins | null = null;

	constructor(readonly deps: NoteHistoryDeps) {
		deps.conflicts.onChange(() => (this.conflictPins = null));
	}

	/** Subscribed to the writer: keeps what every write replaced, and links the new revision to it. */
	async recordWrite(write: CompletedWrite): Promise<void> {
		// Linked (and pinned) first, so the eviction this retain may cause already spares this write's texts.
		if (this.deps.history.markReplaced(write.path, write.revision, write.replaced)) this.deps.onDirty();
		if (write.by.kind === "agent") this.agentPins?.add(write.revision, write.replaced);
		await this.deps.bases.retain(write.replaced, write.replacedContent);
	}

	/** Subscribed to the writer's deletes: the history entry is already there; an agent's delete changes the pins. */
	recordDelete(deletion: CompletedDelete): Promise<void> {
		// As the history records a delete: the removed revision is both what it names and what it replaced.
		if (deletion.by.kind === "agent") this.agentPins?.add(deletion.removed, deletion.removed);
		return Promise.resolve();
	}

	/** Pinned in the base store: the texts open conflicts need, and before and after of the latest agent writes. */
	isPinned(revision: string): boolean {
		const limit = this.deps.settings().undoAgentWrites;
		if (this.agentPins?.limit !== limit) {
			this.agentPins = new AgentWritePins(
				limit,
				recentAgentWrites(this.deps.history, limit).map(({ entry }) => entry),
			);
		}
		this.conflictPins ??= this.pinsOfOpenConflicts();
		return this.conflictPins.has(revision) || this.agentPins.has(revision);
	}

	/**
	 * A page of the note's revisions, newest first; null when we know nothing of the note. `visible`: the paths the
	 * caller may see (its key's scope); a note that came from one it may not has no history for it before it came.
	 */
	async page(path: string, offset: number, limit: number, visible: Visible = ALL): Promise<HistoryPage | null> {
		const entries = sinceArrival(this.deps.history.entries(path), visible);
		const note = await this.deps.gateway.read(path);
		if (entries.length === 0 && !note) return null;
		const currentRevision = note ? revisionOf(note.content) : null;
		const views = entries.map((entry, index) => this.view(entry, entries[index - 1], currentRevision)).reverse();
		const size = Math.max(1, Math.min(limit, MAX_HISTORY_PAGE));
		return { path, currentRevision, total: views.length, offset, revisions: views.slice(offset, offset + size) };
	}

	/** One revision: its text when kept, and a page of the diff from the revision before it. */
	async detail(path: string, revision: string, offset: number, visible: Visible = ALL): Promise<RevisionDetail> {
		const entries = sinceArrival(this.deps.history.entries(path), visible);
		const index = lastIndexOf(entries, revision);
		if (index < 0) return { kind: "unknown" };
		const note = await this.deps.gateway.read(path);
		const view = this.view(entries[index]!, entries[index - 1], note ? revisionOf(note.content) : null);
		const content = await this.deps.bases.get(revision);
		const before = view.previous === null ? "" : await this.deps.bases.get(view.previous);
		let diff: Page | null = null;
		if (content !== null && before !== null) {
			const from = { revision: view.previous ?? "", content: before };
			diff = await this.deps.diffs.page({
				path,
				from,
				to: { revision, content },
				offset,
				maxBytes: diffCapBytes(this.deps.settings()),
			});
		}
		return {
			kind: "revision",
			view: { ...view, restorable: content !== null },
			content,
			diff,
			previousRestorable: before !== null,
		};
	}

	/**
	 * Writes `revision`'s text back, replacing exactly the revision the caller saw (`ifMatch`; If-None-Match: * for a
	 * note that is gone), so a note that moved on is never overwritten. Only revisions of this note's history.
	 */
	async restore(
		path: string,
		revision: string,
		actor: Actor,
		ifMatch: EntityTagCondition,
		ifNoneMatch: EntityTagCondition,
		visible: Visible = ALL,
	): Promise<RestoreOutcome> {
		if (!this.knows(path, revision, visible)) return { kind: "unknown" };
		const content = await this.deps.bases.get(revision);
		if (content === null) return { kind: "not-retained", revision };
		const note = await this.deps.gateway.read(path);
		const currentRevision = note ? revisionOf(note.content) : null;
		if (!conditionHolds(currentRevision, ifMatch, ifNoneMatch)) return { kind: "stale", currentRevision };
		// The writer checks the same conditions again inside its atomic step, so a change meanwhile is still refused.
		// An empty revision is restored on purpose: it was chosen from the history, not a missing file.
		return this.deps.writer.write({
			path,
			operation: { kind: "replace", body: content },
			ifMatch,
			ifNoneMatch,
			actor,
			heldRevision: null,
			allowEmpty: true,
			unseenBody: true,
		});
	}

	/** A revision of this note, or what one of its writes replaced. */
	knows(path: string, revision: string, visible: Visible = ALL): boolean {
		return sinceArrival(this.deps.history.entries(path), visible).some(
			(entry) => entry.revision === revision || entry.replaced === revision,
		);
	}

	private view(entry: RevisionEntry, before: RevisionEntry | undefined, currentRevision: string | null): RevisionView {
		return {
			revision: entry.revision,
			time: new Date(entry.time).toISOString(),
			by: sourceLabel(entry.source),
			source: entry.source.kind,
			size: entry.size,
			restorable: this.deps.bases.has(entry.revision),
			current: entry.revision === currentRevision && !entry.deleted,
			deleted: entry.deleted === true,
			previous: entry.replaced ?? before?.revision ?? null,
			movedFrom: entry.movedFrom ?? null,
		};
	}

	private pinsOfOpenConflicts(): Set<string> {
		const pins = new Set<string>();
		for (const record of this.deps.conflicts.list({ status: "open" })) {
			for (const revision of [record.sentRevision, record.currentRevision, record.proposedRevision])
				if (revision) pins.add(revision);
		}
		return pins;
	}
}

type Visible = (path: string) => boolean;
const ALL: Visible = () => true;

/**
 * A note's entries as a caller that sees only `visible` paths may know them: those after it last came from a path
 * the caller may not see (that move names the path, and what came before it was never the caller's to see).
 */
export function sinceArrival(entries: readonly RevisionEntry[], visible: Visible): readonly RevisionEntry[] {
	if (visible === ALL) return entries;
	for (let i = entries.length - 1; i >= 0; i--) {
		const from = entries[i]!.movedFrom;
		if (from !== undefined && !visible(from)) return entries.slice(i + 1);
	}
	return entries;
}

export interface AgentWrite {
	path: string;
	entry: RevisionEntry;
	agent: string;
}

/**
 * The latest agent writes across the vault (newest first), optionally only one key's, and only of notes `visible`
 * takes (a move counts as of both its paths).
 */
export function recentAgentWrites(
	history: RevisionHistory,
	limit: number,
	agent?: string,
	visible: (path: string) => boolean = () => true,
): AgentWrite[] {
	const writes: AgentWrite[] = [];
	if (limit <= 0) return writes;
	for (const note of history.allNotes()) {
		if (!visible(note.path)) continue;
		for (const entry of note.entries) {
			const name = writerOf(entry);
			if (name === null || (agent !== undefined && name !== agent)) continue;
			if (entry.movedFrom !== undefined && !visible(entry.movedFrom)) continue;
			writes.push({ path: note.path, entry, agent: name });
		}
	}
	return writes.sort((a, b) => b.entry.time - a.entry.time).slice(0, limit);
}

/**
 * Whose write an entry is, for the activity list: an agent key's, or "another program"'s for a save made straight
 * to the file whose replaced text the outside-save net kept (so it can be reverted like an agent's). Null otherwise.
 */
function writerOf(entry: RevisionEntry): string | null {
	if (entry.source.kind === "agent") return entry.source.agent;
	return entry.source.kind === "external" && entry.replaced !== undefined && !entry.deleted
		? sourceLabel(entry.source)
		: null;
}

export function sourceLabel(source: RevisionSource): string {
	if (source.kind === "agent") return source.agent;
	return source.kind === "user" ? "you" : ANOTHER_PROGRAM;
}

/** If-Match / If-None-Match: * as the writer reads them, checked early so a stale undo leaves no .bak behind. */
function conditionHolds(current: string | null, ifMatch: EntityTagCondition, ifNoneMatch: EntityTagCondition): boolean {
	if (ifNoneMatch.kind === "any" && current !== null) return false;
	if (ifMatch.kind === "absent") return true;
	return current !== null && (ifMatch.kind === "any" || strongMatch(ifMatch, current));
}

/** The latest entry that produced `revision` (a delete of it is not shown as the revision). */
function lastIndexOf(entries: readonly RevisionEntry[], revision: string): number {
	for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.revision === revision && !entries[i]!.deleted) return i;
	return -1;
}
