/**
 * What follows a write or a delete through the guarded writer, inside the note's lock: the tracker, history and
 * bases learn of it, and the listeners (conflict settling, note history) are told before the caller is answered.
 * Also the writes that land while a refusal of the same note is kept outside the lock (landed-writes.ts), handed to
 * their listeners again once that refusal's record is saved. A failure here is reported, never answered as one.
 */
import type { BaseStore } from "../stores/base-store";
import type { ConflictRecord } from "../../core/conflicts";
import type { NoteState } from "../../core/guard";
import type { RevisionHistory } from "../stores/revision-history";
import { historySource, type Actor } from "../notes/actor";
import { LandedWrites } from "./landed-writes";
import type { RevisionTracker } from "../revisions/revision-tracker";
import type { CompletedDelete, CompletedMove, CompletedWrite } from "./write-request";

export interface WriteBookkeepingDeps {
	tracker: RevisionTracker;
	history: RevisionHistory;
	bases: BaseStore;
	now: () => number;
	onError?: (error: unknown) => void;
}

type Listener<T> = (event: T) => Promise<void>;

export class WriteBookkeeping {
	private readonly written = new Set<Listener<CompletedWrite>>();
	private readonly deleted = new Set<Listener<CompletedDelete>>();
	private readonly landedBeforeRecord = new Set<Listener<CompletedWrite>>();
	private readonly landed = new LandedWrites();

	constructor(private readonly deps: WriteBookkeepingDeps) {}

	onWritten(listener: Listener<CompletedWrite>): () => void {
		return subscribe(this.written, listener);
	}

	onDeleted(listener: Listener<CompletedDelete>): () => void {
		return subscribe(this.deleted, listener);
	}

	onWrittenBeforeRecord(listener: Listener<CompletedWrite>): () => void {
		return subscribe(this.landedBeforeRecord, listener);
	}

	/** Starts collecting the writes that land on `path` while a refusal of it is kept (call inside the lock). */
	watchLanded(path: string): ReturnType<LandedWrites["watch"]> {
		return this.landed.watch(path);
	}

	/** Hands the writes that landed on the revision `conflict` refused, before it was recorded, to their listeners. */
	async handOver(conflict: ConflictRecord | null, writes: readonly CompletedWrite[]): Promise<void> {
		for (const write of writes) {
			if (conflict?.status !== "open" || write.replaced !== conflict.currentRevision) continue;
			for (const listener of this.landedBeforeRecord)
				await listener(write).catch((error: unknown) => this.deps.onError?.(error));
		}
	}

	/**
	 * History, bases and conflict settling after a write landed. `replaced` comes with its revision, which the write's
	 * check already computed (hashing it again here would cost as much).
	 */
	async afterWrite(
		path: string,
		replaced: { content: string; revision: string } | null,
		content: string,
		revision: string,
		by: Actor,
	): Promise<void> {
		try {
			this.deps.tracker.record(path, content, revision, historySource(by));
			// The writer knows this content, so it is a fair base for its next write.
			this.deps.history.markServed(path, revision, this.deps.now());
			await this.deps.bases.retain(revision, content);
			if (replaced === null) {
				this.deps.history.markCreated(path, revision);
				return;
			}
			const write: CompletedWrite = {
				path,
				replaced: replaced.revision,
				replacedContent: replaced.content,
				revision,
				content,
				by,
			};
			this.landed.landed(write);
			for (const listener of this.written) await listener(write);
		} catch (error) {
			this.deps.onError?.(error);
		}
	}

	/**
	 * A delete is history too: who removed which revision, whose text is kept so the delete can be undone. `removed`:
	 * the note with its revision (known to whoever deleted it). `change`: the agent change it belongs to (a move that
	 * replaced the note), see RevisionEntry.change.
	 */
	async afterDelete(path: string, removed: NoteState, by: Actor, change?: string): Promise<void> {
		try {
			const deletion: CompletedDelete = { path, removed: removed.revision, removedContent: removed.content, by };
			this.deps.tracker.recordDeletion(path, deletion.removed, historySource(by), change);
			// Listeners first (history pins the removed text), so the retain's eviction already spares it.
			for (const listener of this.deleted) await listener(deletion);
			await this.deps.bases.retain(removed.revision, removed.content);
		} catch (error) {
			this.deps.onError?.(error);
		}
	}
}

/**
 * A move in history: the note's entries follow it and the move is one of them; the notes Obsidian rewrote links in
 * for it are the mover's writes, each marked as part of the same change, so an undo takes them back together.
 */
export async function afterMove(
	after: WriteBookkeeping,
	deps: Pick<WriteBookkeepingDeps, "tracker" | "bases" | "onError">,
	move: CompletedMove,
): Promise<void> {
	try {
		deps.tracker.recordMove(move.from, move.to, move.content, move.revision, historySource(move.by), move.change);
		await deps.bases.retain(move.revision, move.content);
	} catch (error) {
		deps.onError?.(error);
	}
	for (const note of move.rewritten) {
		await after.afterWrite(
			note.path,
			{ content: note.before, revision: note.beforeRevision },
			note.after,
			note.revision,
			move.by,
		);
		deps.tracker.recordChangePart(note.path, note.revision, historySource(move.by), move.change);
	}
}

function subscribe<T>(listeners: Set<Listener<T>>, listener: Listener<T>): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}
