/**
 * History and undo, as the application service offers them: a note's revisions, restoring one, recent agent writes
 * and reverting one. Every undo is a write through the one guarded writer, credited to whoever asked, and followed
 * by the change feed like any write.
 *
 * History shows no note's content, so callers are handed change tags for its revisions (core/revision-tokens), and
 * name a revision back by its change tag or by the revision itself. An undo writes a text the caller has not been
 * shown (an old revision, a three-way revert), so its answer hands a change tag too (the writer's `unseenBody`).
 */
import type { EntityTagCondition } from "../../core/revision";
import type { RevisionHistory } from "../stores/revision-history";
import type { Actor } from "../notes/actor";
import type { ActivityEntry, AgentActivity, RevertOutcome } from "./agent-activity";
import type { NoteChangeFeed } from "../revisions/note-change-feed";
import type { HistoryPage, NoteHistoryService, RestoreOutcome, RevisionDetail } from "./note-history";
import { refusedWithout } from "../refusals/refusal";
import type { ScopeGate } from "../scopes/scope-gate";
import type { ScopeForbidden } from "../../core/scope-refusal";

export interface UndoNotesDeps {
	history: RevisionHistory;
	noteHistory: NoteHistoryService;
	activity: AgentActivity;
	changeFeed: NoteChangeFeed;
	/**
	 * What the caller's key may see and change: a note it may not see has no history for it, and an undo is a change
	 * like any other (one a proposal cannot carry, so a note the key may only propose to is not undone either).
	 */
	scopes: ScopeGate;
	/**
	 * Why the caller may not move the note at `path` when the move rewrites the links of notes that link to it (and
	 * of `rewritten`, the notes an undone move had rewritten), or null: ScopeReach.relinkRefusal.
	 */
	relinkRefusal: (actor: Actor, path: string, rewritten: readonly string[]) => Promise<ScopeForbidden | null>;
	/** Why `path` is not there for the caller: it goes through a symbolic link (ScopeReach.throughLink). */
	throughLink: (actor: Actor, path: string) => Promise<ScopeForbidden | null>;
}

export class UndoNotes {
	constructor(private readonly deps: UndoNotesDeps) {}

	/** A page of a note's revisions, newest first (who, when, restorable); null when the note is unknown (to the caller). */
	async history(actor: Actor, path: string, offset: number, limit: number): Promise<HistoryPage | null> {
		if (!this.deps.scopes.visible(actor, path) || (await this.deps.throughLink(actor, path)) !== null) return null;
		return this.deps.noteHistory.page(path, offset, limit, this.deps.scopes.visibility(actor));
	}

	/** One revision of a note: its text if kept, and a page of the diff from the revision before it. */
	async historyRevision(actor: Actor, path: string, revision: string, offset: number): Promise<RevisionDetail> {
		if (!this.deps.scopes.visible(actor, path) || (await this.deps.throughLink(actor, path)) !== null)
			return { kind: "unknown" };
		return this.deps.noteHistory.detail(path, this.named(path, revision), offset, this.deps.scopes.visibility(actor));
	}

	/** Writes an earlier revision back, guarded like any write (it must replace exactly the revision in `ifMatch`). */
	async restore(
		actor: Actor,
		path: string,
		revision: string,
		ifMatch: EntityTagCondition,
		ifNoneMatch: EntityTagCondition,
	): Promise<RestoreOutcome> {
		const gate = this.deps.scopes.change(actor, path, "other");
		if (gate.kind !== "write") return refusedWithout(gate.refusal, null);
		const linked = await this.deps.throughLink(actor, path);
		if (linked !== null) return refusedWithout(linked, null);
		const work = this.deps.noteHistory.restore(
			path,
			this.named(path, revision),
			actor,
			ifMatch,
			ifNoneMatch,
			this.deps.scopes.visibility(actor),
		);
		return this.followUndo(path, actor, work, (outcome) =>
			outcome.kind === "written" ? [{ path, revision: outcome.revision }] : [],
		);
	}

	/** Recent agent writes across the vault that the caller may see, newest first. */
	agentActivity(actor: Actor, limit: number, agent?: string): ActivityEntry[] {
		return this.deps.activity.list(limit, agent, this.deps.scopes.visibility(actor));
	}

	/** Undoes an agent's write (directly, or by a clean three-way revert); a revert that conflicts is handed back. */
	async revert(
		actor: Actor,
		path: string,
		revision: string | undefined,
		ifMatch: EntityTagCondition,
		ifNoneMatch?: EntityTagCondition,
	): Promise<RevertOutcome> {
		// After the scope's own check (a hidden note's 403 says nothing of links), before the history is looked at.
		const linked =
			this.deps.scopes.change(actor, path, "other").kind === "write" ? await this.deps.throughLink(actor, path) : null;
		if (linked !== null) return { kind: "write", outcome: refusedWithout(linked, null), merged: false };
		const mayChange = (changed: string) => {
			const gate = this.deps.scopes.change(actor, changed, "other");
			return gate.kind === "write" ? null : gate.refusal;
		};
		const work = this.deps.activity.revert(
			path,
			revision === undefined ? undefined : this.named(path, revision),
			actor,
			ifMatch,
			ifNoneMatch,
			{
				mayChange,
				mayRelink: (moved, rewritten) => this.deps.relinkRefusal(actor, moved, rewritten),
				visible: this.deps.scopes.visibility(actor),
			},
		);
		return this.followUndo(path, actor, work, (outcome) => {
			if (outcome.kind === "move")
				return outcome.undo.kind === "moved-back"
					? [
							{ path: outcome.undo.from, revision: null },
							{ path: outcome.undo.to, revision: outcome.undo.revision },
						]
					: [];
			if (outcome.kind !== "write") return [];
			return outcome.outcome.kind === "written"
				? [{ path, revision: outcome.outcome.revision }]
				: outcome.outcome.kind === "deleted"
					? [{ path, revision: null }]
					: [];
		});
	}

	/** The revision of the note's history a caller names, by the revision itself or by its change tag. */
	private named(path: string, revision: string): string {
		return this.deps.history.revisionNamed(path, revision) ?? revision;
	}

	/** An undo's writes (a move back: both paths) are credited to its actor in `onNoteChanged`, like any write through `write`. */
	private async followUndo<T>(
		path: string,
		actor: Actor,
		work: Promise<T>,
		landed: (outcome: T) => { path: string; revision: string | null }[],
	): Promise<T> {
		await this.deps.changeFeed.trackMany(
			[path],
			actor,
			work.then(landed, () => []),
			(changes) => changes,
		);
		return work;
	}
}
