/**
 * History and undo, as the application service offers them: a note's revisions, restoring one, recent agent writes
 * and reverting one. Every undo is a write through the one guarded writer, credited to whoever asked, and followed
 * by the change feed like any write.
 */
import type { EntityTagCondition } from "../core/revision";
import type { Actor } from "./actor";
import type { ActivityEntry, AgentActivity, RevertOutcome } from "./agent-activity";
import type { WriteOutcome } from "./guarded-writer";
import type { NoteChangeFeed } from "./note-change-feed";
import type { HistoryPage, NoteHistoryService, RestoreOutcome, RevisionDetail } from "./note-history";

export interface UndoNotesDeps {
	noteHistory: NoteHistoryService;
	activity: AgentActivity;
	changeFeed: NoteChangeFeed;
}

export class UndoNotes {
	constructor(private readonly deps: UndoNotesDeps) {}

	/** A page of a note's revisions, newest first (who, when, restorable); null when the note is unknown. */
	history(path: string, offset: number, limit: number): Promise<HistoryPage | null> {
		return this.deps.noteHistory.page(path, offset, limit);
	}

	/** One revision of a note: its text if kept, and a page of the diff from the revision before it. */
	historyRevision(path: string, revision: string, offset: number): Promise<RevisionDetail> {
		return this.deps.noteHistory.detail(path, revision, offset);
	}

	/** Writes an earlier revision back, guarded like any write (it must replace exactly the revision in `ifMatch`). */
	restore(actor: Actor, path: string, revision: string, ifMatch: EntityTagCondition, ifNoneMatch: EntityTagCondition): Promise<RestoreOutcome> {
		const work = this.deps.noteHistory.restore(path, revision, actor, ifMatch, ifNoneMatch);
		return this.followUndo(path, actor, work, (outcome) => (outcome.kind === "written" ? outcome : null));
	}

	/** Recent agent writes across the vault, newest first. */
	agentActivity(limit: number, agent?: string): ActivityEntry[] {
		return this.deps.activity.list(limit, agent);
	}

	/** Undoes an agent's write (directly, or by a clean three-way revert); a revert that conflicts is handed back. */
	revert(actor: Actor, path: string, revision: string | undefined, ifMatch: EntityTagCondition, ifNoneMatch?: EntityTagCondition): Promise<RevertOutcome> {
		return this.followUndo(path, actor, this.deps.activity.revert(path, revision, actor, ifMatch, ifNoneMatch), (outcome) => (outcome.kind === "write" ? outcome.outcome : null));
	}

	/** An undo's write is credited to its actor in `onNoteChanged`, like any write through `write`. */
	private async followUndo<T>(path: string, actor: Actor, work: Promise<T>, written: (outcome: T) => WriteOutcome | null): Promise<T> {
		const NOTHING: WriteOutcome = { kind: "unchanged", revision: "" };
		await this.deps.changeFeed.track(path, actor, work.then((outcome) => written(outcome) ?? NOTHING, () => NOTHING));
		return work;
	}
}
