/**
 * The safety net for programs that save the vault's files directly (an agent's file tool, a script, a sync tool).
 * Their saves cannot be refused, but each one is seen (RevisionTracker.onObserved), and:
 * - the text it replaced (P) is kept in the base store and named in the save's history entry, so the note's history
 *   shows it and Restore or Revert bring it back; it stays pinned for KEEP_REPLACED_MS, within the store's cap;
 * - a save W that dropped P's edits (core/outside-save.ts: merge of P's parent, P and W) keeps P byte for byte as a
 *   .bak note with an `outside-save` conflict (source "outside", by "another program"), which the person is told of;
 *   when the merge is clean it is offered, and applied at once as the person with `autoMergeOutsideSaves`.
 *
 * Knowing P's text needs the current text of recently changed notes: each new revision seen is kept in the base store
 * once the note has been quiet for RETAIN_AFTER_MS (one write per burst of saves, not per autosave), and until then
 * in memory, within MAX_PENDING_BYTES. A note open in Obsidian's editor may be changed by the person's own save:
 * its P is kept only when the save dropped an edit.
 */
import type { BaseStore } from "../stores/base-store";
import { ANOTHER_PROGRAM } from "../../core/conflicts";
import { type ConflictLog } from "../stores/conflict-log";
import { judgeOutsideSaveSteps, type OutsideSaveVerdict } from "../../core/outside-save";
import { parseEntityTagCondition } from "../../core/revision";
import type { RevisionEntry } from "../../core/revision-history";
import type { RevisionHistory } from "../stores/revision-history";
import { finishInSlices, type YieldToHost } from "../../core/steps";
import type { Timers } from "../../core/timers";
import { utf8Length } from "../../core/utf8";
import type { RevisionGuardSettings } from "../../settings";
import type { VaultGateway } from "../../vault/gateway";
import { PERSON } from "../notes/actor";
import type { BackupNames } from "../write/backup-names";
import type { GuardedWriter } from "../write/guarded-writer";
import { keepRefusedBody } from "../write/refused-body";
import type { ObservedRevision } from "./revision-tracker";

/** How long the text an outside save replaced stays pinned in the base store (evicted only when nothing else is). */
export const KEEP_REPLACED_MS = 7 * 24 * 60 * 60 * 1000;
/** A changed note's text goes to the base store once the note has been quiet this long. */
export const RETAIN_AFTER_MS = 30_000;
/** Texts waiting for that, at most; past it the oldest is kept at once. */
export const MAX_PENDING_BYTES = 16 * 1024 * 1024;
/** Pins past this many are swept of expired ones as new ones come. */
const MAX_PINS = 10_000;
/** Notes larger than this are kept but not judged (the merge would hold the host too long). */
export const MAX_JUDGED_BYTES = 2 * 1024 * 1024;

export interface OutsideSavesDeps {
	gateway: VaultGateway;
	history: RevisionHistory;
	bases: BaseStore;
	conflicts: ConflictLog;
	writer: GuardedWriter;
	backupNames: BackupNames;
	conflictsSaved: () => Promise<void>;
	settings: () => RevisionGuardSettings;
	timers: Timers;
	now: () => number;
	yieldToHost: YieldToHost;
	onDirty: () => void;
	onError?: (error: unknown) => void;
}

interface Pending {
	revision: string;
	text: string;
	/** The text this one replaced while it was still waiting (P's parent, for the next save's verdict). */
	before?: { revision: string; text: string };
	bytes: number;
	timer: unknown;
}

export class OutsideSaves {
	/** The latest text of each note changed within RETAIN_AFTER_MS, oldest first. */
	private readonly pending = new Map<string, Pending>();
	private pendingBytes = 0;
	/** Each note's saves are judged in the order they were seen. */
	private readonly turns = new Map<string, Promise<void>>();
	/** Revisions an outside save replaced → until when they stay pinned (built from history on first use). */
	private keptUntil: Map<string, number> | null = null;

	constructor(private readonly deps: OutsideSavesDeps) {}

	/** A new revision nobody made through our door (the tracker's onObserved). */
	observed(observed: ObservedRevision): void {
		const { path } = observed;
		const before = this.turns.get(path) ?? Promise.resolve();
		const turn = before
			.then(() => this.judge(observed))
			.catch((error: unknown) => this.deps.onError?.(error))
			.finally(() => {
				if (this.turns.get(path) === turn) this.turns.delete(path);
			});
		this.turns.set(path, turn);
	}

	/** A recently changed note's text, read at start-up: what its next save replaces. */
	recent(path: string, revision: string, content: string): void {
		this.remember(path, revision, content);
	}

	/** Whether the base store must keep `revision` before others: an outside save replaced it recently. */
	pins(revision: string): boolean {
		const until = this.kept().get(revision);
		return until !== undefined && until > this.deps.now();
	}

	/** Every save seen so far is judged, and every pending text is in the base store (tests, shutdown). */
	async settle(): Promise<void> {
		while (this.turns.size > 0) await Promise.all([...this.turns.values()]);
		for (const path of [...this.pending.keys()]) await this.retainPending(path);
	}

	private async judge(observed: ObservedRevision): Promise<void> {
		const { path, replaced } = observed;
		const previous = replaced === undefined ? null : await this.textOf(path, replaced);
		this.remember(path, observed.revision, observed.content);
		if (replaced === undefined || previous === null) return;
		const openInEditor = this.deps.gateway.openInEditor?.(path) ?? false;
		const verdict = await this.verdict(path, replaced, previous, observed, openInEditor);
		// In an editor the person may have saved this themselves: only a save that dropped an edit is another program's.
		const byAnotherProgram = !openInEditor || verdict?.kind === "lost";
		if (!byAnotherProgram) return;
		await this.keepReplaced(path, observed.revision, replaced, previous);
		if (verdict?.kind === "lost") await this.flag(path, observed, replaced, previous, verdict);
	}

	/** The verdict on the save, or null when it cannot be judged (P's history is not known, or the note is too large). */
	private async verdict(
		path: string,
		replaced: string,
		previous: string,
		observed: ObservedRevision,
		openInEditor: boolean,
	): Promise<(OutsideSaveVerdict & { parentRevision: string | null }) | null> {
		if (utf8Length(previous) > MAX_JUDGED_BYTES || utf8Length(observed.content) > MAX_JUDGED_BYTES) return null;
		const entries = this.deps.history.entries(path);
		const parent = await this.parentOf(path, entries, replaced);
		if (parent === null) return null;
		const writtenIsEarlier = entries
			.slice(0, -1)
			.some((entry) => entry.revision === observed.revision && !entry.deleted);
		const verdict = await finishInSlices(
			judgeOutsideSaveSteps({
				parent: parent.text,
				previous,
				written: observed.content,
				writtenIsEarlier,
				openInEditor,
			}),
			this.deps.yieldToHost,
		);
		return { ...verdict, parentRevision: parent.revision };
	}

	/**
	 * P's previous revision whose text is still kept: the nearest one before P (a burst of autosaves keeps only its
	 * last text, and an older base only widens what counts as P's edit). `""` when P created the note.
	 */
	private async parentOf(
		path: string,
		entries: readonly RevisionEntry[],
		replaced: string,
	): Promise<{ revision: string | null; text: string } | null> {
		let index = -1;
		for (let i = entries.length - 2; i >= 0; i--) {
			if (entries[i]!.revision === replaced && !entries[i]!.deleted) {
				index = i;
				break;
			}
		}
		if (index < 0) return null;
		if (entries[index]!.created) return { revision: null, text: "" };
		const direct = entries[index]!.replaced;
		if (direct !== undefined) {
			const text = await this.textOf(path, direct);
			if (text !== null) return { revision: direct, text };
		}
		for (let i = index - 1; i >= 0; i--) {
			const entry = entries[i]!;
			if (entry.deleted) return { revision: null, text: "" };
			const text = await this.textOf(path, entry.revision);
			if (text !== null) return { revision: entry.revision, text };
		}
		return null;
	}

	/** P stays restorable: kept in the base store, named as what the save replaced, and pinned for a while. */
	private async keepReplaced(path: string, written: string, replaced: string, previous: string): Promise<void> {
		await this.deps.bases.retain(replaced, previous);
		if (this.deps.history.markReplaced(path, written, replaced)) this.deps.onDirty();
		const kept = this.kept();
		kept.set(replaced, this.deps.now() + KEEP_REPLACED_MS);
		if (kept.size > MAX_PINS) for (const [revision, until] of kept) if (until <= this.deps.now()) kept.delete(revision);
	}

	/** The save dropped P's edits: P as a .bak and a conflict the person is told of; the clean merge applied if asked. */
	private async flag(
		path: string,
		observed: ObservedRevision,
		replaced: string,
		previous: string,
		verdict: Extract<OutsideSaveVerdict, { kind: "lost" }> & { parentRevision: string | null },
	): Promise<void> {
		const { deps } = this;
		deps.history.creditLatest(path, observed.revision, { kind: "external" });
		deps.onDirty();
		const kept = await keepRefusedBody(
			{
				gateway: deps.gateway,
				bases: deps.bases,
				conflicts: deps.conflicts,
				backupFolder: () => deps.settings().backupFolder,
				now: deps.now,
				conflictsSaved: deps.conflictsSaved,
				backupNames: deps.backupNames,
				onError: deps.onError,
			},
			{
				path,
				body: previous,
				reason: "outside-save",
				source: "outside",
				sentRevision: verdict.parentRevision,
				currentRevision: observed.revision,
				agent: ANOTHER_PROGRAM,
			},
		);
		if (verdict.merged === null || !deps.settings().autoMergeOutsideSaves) return;
		const outcome = await deps.writer.write({
			path,
			operation: { kind: "replace", body: verdict.merged },
			ifMatch: parseEntityTagCondition(`"${observed.revision}"`),
			ifNoneMatch: parseEntityTagCondition(undefined),
			actor: PERSON,
		});
		if (outcome.kind !== "written") return;
		deps.conflicts.setStatus(kept.conflict.id, "resolved", new Date(deps.now()).toISOString(), {
			resolvedRevision: outcome.revision,
			agentTaken: "whole",
			resolvedBy: "you",
		});
	}

	private async textOf(path: string, revision: string): Promise<string | null> {
		const pending = this.pending.get(path);
		if (pending?.revision === revision) return pending.text;
		if (pending?.before?.revision === revision) return pending.before.text;
		return this.deps.bases.get(revision).catch(() => null);
	}

	/**
	 * The note's text now, kept in memory until it has been quiet long enough to go to the base store, with the text it
	 * replaced while that was still waiting: a save soon after another still has its parent's text to be judged by.
	 */
	private remember(path: string, revision: string, text: string): void {
		const superseded = this.pending.get(path);
		this.forget(path);
		const before =
			superseded && superseded.revision !== revision
				? { revision: superseded.revision, text: superseded.text }
				: undefined;
		const bytes = utf8Length(text) + (before ? utf8Length(before.text) : 0);
		const timer = this.deps.timers.schedule(() => void this.retainPending(path), RETAIN_AFTER_MS);
		this.pending.set(path, { revision, text, ...(before ? { before } : {}), bytes, timer });
		this.pendingBytes += bytes;
		for (const oldest of this.pending.keys()) {
			if (this.pendingBytes <= MAX_PENDING_BYTES) break;
			void this.retainPending(oldest);
		}
	}

	private async retainPending(path: string): Promise<void> {
		const pending = this.pending.get(path);
		if (!pending) return;
		this.forget(path);
		await this.deps.bases.retain(pending.revision, pending.text).catch((error: unknown) => this.deps.onError?.(error));
	}

	private forget(path: string): void {
		const pending = this.pending.get(path);
		if (!pending) return;
		this.deps.timers.cancel(pending.timer);
		this.pending.delete(path);
		this.pendingBytes -= pending.bytes;
	}

	private kept(): Map<string, number> {
		if (this.keptUntil) return this.keptUntil;
		this.keptUntil = new Map();
		for (const note of this.deps.history.allNotes()) {
			for (const entry of note.entries) {
				if (entry.source.kind === "agent" || entry.replaced === undefined || entry.deleted) continue;
				this.keptUntil.set(entry.replaced, entry.time + KEEP_REPLACED_MS);
			}
		}
		return this.keptUntil;
	}
}
