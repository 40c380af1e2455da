/**
 * Agent activity and Revert. The latest agent writes across the vault (from revision history), and undoing one:
 * when the note is still what the agent left, its replaced text is written back (If-Match = the agent's result);
 * when the note moved on, a three-way revert (base = the agent's result, mine = the note now, theirs = what the
 * agent replaced) takes out the agent's change and keeps the later ones. A clean revert is written; one that
 * conflicts is handed back for a person to merge. An agent's delete is undone by creating the note again with the
 * text it removed (If-None-Match: *, so a note created since is never overwritten); a note an agent created is
 * undone by moving it to the trash while it is still exactly what the agent wrote (If-Match = the agent's result).
 * Every write goes through the guarded writer.
 */
import { mergeThreeWayInSlices, renderMerge, type MergeResult } from "../../core/merge";
import { parseEntityTagCondition, revisionOf, strongMatch, type EntityTagCondition } from "../../core/revision";
import type { YieldToHost } from "../../core/steps";
import type { Actor } from "../notes/actor";
import type { WriteOutcome } from "../write/guarded-writer";
import { recentAgentWrites, sinceArrival, type NoteHistoryService } from "./note-history";
import { rewrittenByMove, undoMove, type MoveUndo } from "../moves/undo-move";
import type { Refusal } from "../../core/guard";
import { refusedWithout } from "../refusals/refusal";
import { MAX_ACTIVITY } from "./activity-limit";

export { MAX_ACTIVITY };

export interface ActivityEntry {
	path: string;
	agent: string;
	time: string;
	/** The revision the agent's write produced. */
	revision: string;
	/** What it replaced (absent for a note the agent created). */
	replaced: string | null;
	/** The agent deleted the note (`revision` and `replaced` are the revision it removed). */
	deleted: boolean;
	/** The agent moved the note here from this path (Revert moves it back); null for any other write. */
	movedFrom: string | null;
	/** The note still holds the agent's result (for a delete: the note is still gone). */
	current: boolean;
	/** Revert can work: what it replaced (or deleted) is still kept; for a created note, it is unchanged since. */
	revertible: boolean;
}

/** The sides of a revert that needs a person: merge `mine` with `theirs` over `base`. */
export interface RevertSides {
	path: string;
	agent: string;
	/** The agent's result. */
	base: string;
	mine: string;
	mineRevision: string;
	/** What the agent replaced. */
	theirs: string;
	result: MergeResult;
	/** The merge with conflict markers, for callers without a merge view. */
	preview: string;
}

export type RevertOutcome =
	| { kind: "unknown" }
	/**
	 * The agent created the note and it changed since, so it is not deleted (delete it by hand if unwanted); or what
	 * the write replaced was never recorded (history kept by an older version).
	 */
	| { kind: "nothing-replaced" }
	/** The agent deleted the note, and a note was created at its path since: nothing was written. */
	| { kind: "exists"; currentRevision: string; deleted: string }
	| { kind: "not-retained"; revision: string }
	| { kind: "missing" }
	/** The note is no longer the revision the caller sent in If-Match: nothing was written. */
	| { kind: "stale"; currentRevision: string }
	| { kind: "needs-merge"; sides: RevertSides }
	/** The write was a move: moved back (with the links it rewrote), or why not (see undo-move.ts). */
	| { kind: "move"; undo: MoveUndo }
	| { kind: "write"; outcome: WriteOutcome; merged: boolean };

/** What a caller's key scope allows a revert (service/scopes): by default, everything. */
export interface RevertScope {
	mayChange: (path: string) => Refusal | null;
	/** Whether the caller may undo a move of the note at `path` that rewrote the links of `rewritten`. */
	mayRelink: (path: string, rewritten: readonly string[]) => Promise<Refusal | null>;
	/** The paths the caller may see: a write from before the note came from one it may not see is not its to undo. */
	visible: (path: string) => boolean;
}

const UNSCOPED: RevertScope = { mayChange: () => null, mayRelink: async () => null, visible: () => true };

export class AgentActivity {
	constructor(
		private readonly history: NoteHistoryService,
		private readonly yieldToHost: YieldToHost,
	) {}

	/** Recent agent writes, newest first (`agent`: only that key's; `visible`: only of notes the caller may see). */
	list(limit: number, agent?: string, visible?: (path: string) => boolean): ActivityEntry[] {
		const { history: revisions, bases } = this.history.deps;
		return recentAgentWrites(revisions, Math.min(Math.max(limit, 1), MAX_ACTIVITY), agent, visible).map(
			({ path, entry, agent: name }) => {
				const current = entry.deleted
					? revisions.latest(path) === undefined && revisions.entries(path).at(-1) === entry
					: revisions.latest(path)?.revision === entry.revision;
				// A move is undone by moving the note back, which needs no kept text: only the note, still at its path.
				const revertible =
					entry.movedFrom !== undefined
						? revisions.latest(path) !== undefined
						: entry.replaced === undefined
							? entry.created === true && current
							: bases.has(entry.replaced);
				return {
					path,
					agent: name,
					time: new Date(entry.time).toISOString(),
					revision: entry.revision,
					replaced: entry.replaced ?? null,
					deleted: entry.deleted === true,
					movedFrom: entry.movedFrom ?? null,
					current,
					revertible,
				};
			},
		);
	}

	/**
	 * Undoes the agent write that produced `revision` (the note's latest agent write when absent), replacing exactly
	 * the note revision the caller saw (`ifMatch`, required by REST; the modal sends the one it showed). A delete is
	 * undone only while no note is at its path (If-None-Match: * says the caller expects none).
	 */
	async revert(
		path: string,
		revision: string | undefined,
		actor: Actor,
		ifMatch: EntityTagCondition,
		ifNoneMatch: EntityTagCondition = { kind: "absent" },
		scope: RevertScope = UNSCOPED,
	): Promise<RevertOutcome> {
		const { mayChange, mayRelink, visible } = scope;
		const { history, bases, gateway } = this.history.deps;
		// Before the history is looked at, so a refusal says nothing of what the history holds.
		const refused = mayChange(path);
		if (refused !== null) return { kind: "write", outcome: refusedWithout(refused, null), merged: false };
		const entry = [...sinceArrival(history.entries(path), visible)]
			.reverse()
			.find(
				(candidate) => candidate.source.kind === "agent" && (revision === undefined || candidate.revision === revision),
			);
		if (!entry || entry.source.kind !== "agent") return { kind: "unknown" };
		// Undoing a move writes its old path too: the caller must be allowed to change both.
		const movedFrom = entry.movedFrom === undefined ? null : mayChange(entry.movedFrom);
		if (movedFrom !== null) return { kind: "write", outcome: refusedWithout(movedFrom, null), merged: false };
		if (entry.deleted) return this.undoDelete(path, entry.revision, actor);
		const note = await gateway.read(path);
		if (!note) return { kind: "missing" };
		const mineRevision = revisionOf(note.content);
		// If-None-Match: * expects no note, which is only right for undoing a delete.
		const stale =
			ifNoneMatch.kind === "any" ||
			(ifMatch.kind !== "absent" && ifMatch.kind !== "any" && !strongMatch(ifMatch, mineRevision));
		if (stale) return { kind: "stale", currentRevision: mineRevision };
		// Moving back rewrites links again, and puts back the text of the notes the move rewrote: the caller's to change.
		const relink = entry.movedFrom === undefined ? null : await mayRelink(path, rewrittenByMove(history, path, entry));
		if (relink !== null) return { kind: "write", outcome: refusedWithout(relink, null), merged: false };
		if (entry.movedFrom !== undefined)
			return {
				kind: "move",
				undo: await undoMove(this.history.deps, path, entry, entry.movedFrom, mineRevision, actor),
			};
		if (entry.replaced === undefined)
			return entry.created ? this.undoCreate(path, entry.revision, mineRevision, actor) : { kind: "nothing-replaced" };
		const replaced = await bases.get(entry.replaced);
		if (replaced === null) return { kind: "not-retained", revision: entry.replaced };
		if (mineRevision === entry.revision)
			return { kind: "write", outcome: await this.write(path, replaced, mineRevision, actor), merged: false };
		const result = await bases.get(entry.revision);
		if (result === null) return { kind: "not-retained", revision: entry.revision };
		const merge = await mergeThreeWayInSlices(result, note.content, replaced, this.yieldToHost);
		const text = renderMerge(merge);
		if (merge.clean) return { kind: "write", outcome: await this.write(path, text, mineRevision, actor), merged: true };
		return {
			kind: "needs-merge",
			sides: {
				path,
				agent: entry.source.agent,
				base: result,
				mine: note.content,
				mineRevision,
				theirs: replaced,
				result: merge,
				preview: text,
			},
		};
	}

	/** The person's merge of a revert (from the merge view), replacing exactly `mineRevision`. */
	saveMerge(path: string, text: string, mineRevision: string, actor: Actor): Promise<WriteOutcome> {
		return this.write(path, text, mineRevision, actor);
	}

	/** The note as it is now, for a revert merge to be redone against after the person's save was refused. */
	async noteNow(path: string): Promise<{ content: string; revision: string } | null> {
		const note = await this.history.deps.gateway.read(path);
		return note ? { content: note.content, revision: revisionOf(note.content) } : null;
	}

	/** Creates the note again with the text the agent's delete removed, never over a note created since. */
	private async undoDelete(path: string, deleted: string, actor: Actor): Promise<RevertOutcome> {
		const { bases, gateway, writer } = this.history.deps;
		const text = await bases.get(deleted);
		if (text === null) return { kind: "not-retained", revision: deleted };
		const note = await gateway.read(path);
		if (note) return { kind: "exists", currentRevision: revisionOf(note.content), deleted };
		// The writer checks If-None-Match: * again inside its atomic step, so a note created meanwhile is not replaced.
		const ifNoneMatch = parseEntityTagCondition("*");
		const outcome = await writer.write({
			path,
			operation: { kind: "replace", body: text },
			ifMatch: { kind: "absent" },
			ifNoneMatch,
			actor,
			heldRevision: null,
			allowEmpty: true,
			unseenBody: true,
		});
		return { kind: "write", outcome, merged: false };
	}

	/** Moves a note the agent created to the trash, only while it is exactly what the agent wrote. */
	private async undoCreate(path: string, created: string, mineRevision: string, actor: Actor): Promise<RevertOutcome> {
		if (mineRevision !== created) return { kind: "nothing-replaced" };
		const ifMatch = parseEntityTagCondition(`"${created}"`);
		const outcome = await this.history.deps.writer.write({
			path,
			operation: { kind: "delete" },
			ifMatch,
			ifNoneMatch: { kind: "absent" },
			actor,
			heldRevision: null,
		});
		return { kind: "write", outcome, merged: false };
	}

	private write(path: string, text: string, expected: string, actor: Actor): Promise<WriteOutcome> {
		const ifMatch = parseEntityTagCondition(`"${expected}"`);
		return this.history.deps.writer.write({
			path,
			operation: { kind: "replace", body: text },
			ifMatch,
			ifNoneMatch: parseEntityTagCondition(undefined),
			actor,
			heldRevision: null,
			allowEmpty: true,
			unseenBody: true,
		});
	}
}
