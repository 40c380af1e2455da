/**
 * THE guarded write. Every path that changes a note (REST PUT/POST/DELETE/PATCH, the merge modal, MCP tools) comes
 * through `write`. The token check runs inside the gateway's atomic read-check-write; a refused body is kept as a
 * .bak note and a conflict record before the caller learns of the refusal, and before any work whose cost grows
 * with the note. Keeping it happens after the note's lock is released, so refusals never hold up the writes that
 * get through (under contention most requests are refusals).
 */
import type { BaseStore } from "../stores/base-store";
import { isBackupPath } from "../../core/conflicts";
import { type ConflictLog } from "../stores/conflict-log";
import { noteStateOf, type GuardRequest, type NoteState, type Refusal } from "../../core/guard";
import { KeyedMutex } from "../stores/keyed-mutex";
import type { HeldRead, ReadLedger } from "../stores/read-ledger";
import { revisionInSlices, revisionOf, sentRevisions, SLICE_CHARS } from "../../core/revision";
import { planWrite, type MergeOption, type WritePlan } from "../../core/write-plan";
import type { RevisionHistory } from "../stores/revision-history";
import type { YieldToHost } from "../../core/steps";
import type { RevisionGuardSettings } from "../../settings";
import type { MutationOutcome, MutationPlan, VaultGateway } from "../../vault/gateway";
import { NoteBusyError, NoteKeptChangingError } from "../../vault/errors";
import type { CompletedDelete, CompletedWrite, WriteOutcome, WriteRequest } from "./write-request";
import type { CopyOutcome, CopyRequest, MoveOutcome, MoveRequest } from "../moves/move-request";
import { relocationRefused } from "../refusals/relocation-report";
import { GuardedMove } from "../moves/guarded-move";
import { copyNote } from "../moves/guarded-copy";
import { clientOf, historySource, type Actor } from "../notes/actor";
import { BackupNames } from "./backup-names";
import { PendingDurability, type AwaitingDisk } from "./pending-durability";
import { notDurable, type NotDurableChange } from "../refusals/not-durable";
import { autoMergeInSlices, mergeBaseOf } from "./auto-merge";
import type { DiffPages } from "../history/diff-pages";
import { heldRevision, readExpired, withHeldRevision } from "./implicit-tokens";
import { WriteBookkeeping } from "./write-bookkeeping";
import { carryOut, type Basis, type CarryOutDeps, type Refusing } from "./carry-out";
import { answerRefusal, type RefusalBasis, refusedWithout } from "../refusals/refusal";
import type { RevisionTracker } from "../revisions/revision-tracker";

export type { CompletedDelete, CompletedWrite, WriteOutcome, WriteRequest } from "./write-request";
export type { CopyOutcome, CopyRequest, MoveOutcome, MoveRequest } from "../moves/move-request";

/** How often a merge is recomputed because the note kept changing while it was being merged. */
const MERGE_ATTEMPTS = 3;

export interface GuardedWriterDeps {
	gateway: VaultGateway;
	tracker: RevisionTracker;
	history: RevisionHistory;
	bases: BaseStore;
	conflicts: ConflictLog;
	settings: () => RevisionGuardSettings;
	now: () => number;
	/** Resolves once the latest conflict record change is saved; awaited before a refusal is answered. */
	conflictsSaved: () => Promise<void>;
	/** What each client last read, for implicit tokens. */
	reads: ReadLedger;
	/** Gives the host a turn during long diffs and merges. */
	yieldToHost: YieldToHost;
	/** Where diffs for agents are computed (bounded, paged). */
	diffs: DiffPages;
	/** Errors in bookkeeping after a write landed: reported, never turned into a failed answer. */
	onError?: (error: unknown) => void;
	/** .bak names being created right now, shared with whatever else keeps .bak notes (proposals); its own by default. */
	backupNames?: BackupNames;
}

export class GuardedWriter {
	private readonly locks = new KeyedMutex();
	private readonly backupNames: BackupNames;
	private readonly onDisk = new PendingDurability();
	private readonly after: WriteBookkeeping;
	private readonly moves: GuardedMove;
	private readonly carryOutDeps: CarryOutDeps;

	constructor(private readonly deps: GuardedWriterDeps) {
		this.backupNames = deps.backupNames ?? new BackupNames();
		this.after = new WriteBookkeeping(deps);
		// Made once: every write hands it on.
		this.carryOutDeps = { ...deps, after: this.after };
		this.moves = new GuardedMove(deps, this.after);
	}

	/**
	 * Subscribes to every write that replaced an existing note (conflict records settle themselves there); the write
	 * is answered once every listener is done. Returns the unsubscriber.
	 */
	onWritten(listener: (write: CompletedWrite) => Promise<void>): () => void {
		return this.after.onWritten(listener);
	}

	/** Subscribes to every delete through the writer (the delete is answered once every listener is done). */
	onDeleted(listener: (deletion: CompletedDelete) => Promise<void>): () => void {
		return this.after.onDeleted(listener);
	}

	/**
	 * Subscribes to writes that landed on a note while a refusal of it was being kept outside the lock: each is handed
	 * over again once that refusal's conflict record is saved (before the refusal is answered), so a listener that
	 * settles records on writes (idempotently) settles that one too.
	 */
	onWrittenBeforeRecord(listener: (write: CompletedWrite) => Promise<void>): () => void {
		return this.after.onWrittenBeforeRecord(listener);
	}

	/**
	 * A change an agent made to a note outside this writer (an Obsidian command it ran), told once it is in place:
	 * history, bases and listeners learn of it as of that agent's write (so it is listed and can be undone), in the
	 * note's lock like every write. `before` is what it replaced (null: the change created the note).
	 */
	creditChange(
		path: string,
		before: { content: string; revision: string } | null,
		after: string,
		actor: Actor,
	): Promise<void> {
		return this.locks.run(path, () => this.after.afterWrite(path, before, after, revisionOf(after), actor));
	}

	/** The same for a note such a change deleted: `removed` is its text before. */
	creditDelete(path: string, removed: string, actor: Actor): Promise<void> {
		return this.locks.run(path, () =>
			this.after.afterDelete(path, { content: removed, revision: revisionOf(removed) }, actor),
		);
	}

	/** The read a tokenless write from `client` would be held to now (its last read), or null. */
	heldRevision(client: string | undefined, path: string): HeldRead | null {
		return heldRevision(this.deps, client, path);
	}

	async write(request: WriteRequest): Promise<WriteOutcome> {
		// Captured before waiting for the lock: a parallel write by the same client must not become this one's basis.
		const client = clientOf(request.actor);
		const held = request.heldRevision !== undefined ? request.heldRevision : this.heldRevision(client, request.path);
		const { checked, implicit, lastReadPart } = withHeldRevision(request, held);
		if (request.actor.kind === "agent" && isBackupPath(request.path, this.deps.settings().backupFolder)) {
			return refusedWithout({ reason: "backup-read-only" }, null);
		}
		let earlierOnDisk: Promise<void> | undefined;
		const outcome = await this.locks.run(request.path, async () => {
			const locked = await this.writeLocked(checked, { sent: request.ifMatch, held, implicit });
			const settled = locked.kind === "awaiting-disk" ? locked.answer : locked;
			if (client !== undefined && (settled.kind === "written" || settled.kind === "unchanged")) {
				// The writer knows what it just wrote (all of it, or the part it wrote): its next tokenless write is held to that.
				if (settled.sight !== "none")
					this.deps.reads.record(client, request.path, settled.revision, this.deps.now(), settled.sight);
			}
			// A client that deleted the note has no read of it left: creating it again needs no token.
			if (client !== undefined && settled.kind === "deleted") this.deps.reads.forget(client, request.path);
			// A delete (or a write with nothing of its own to make durable) stands on what an earlier write put in place,
			// maybe not on disk yet. Asked before a delete's own step becomes the note's pending one.
			if (settled.kind === "unchanged" || settled.kind === "deleted") earlierOnDisk = this.onDisk.of(request.path);
			if (locked.kind === "awaiting-disk") this.onDisk.pending(request.path, locked.durable);
			else if (locked.kind === "written") this.onDisk.durableNow(request.path);
			return locked;
		});
		// Acknowledged only once durable, but without holding up the next writer of the note meanwhile. A change the disk
		// failed to make durable is answered as such (in place, but not durable), never as a success.
		if (outcome.kind === "awaiting-disk")
			await outcome.durable.catch((error: unknown) => {
				this.deps.onError?.(error);
				throw notDurable(request.path, outcome.inPlace, error);
			});
		const settled = outcome.kind === "awaiting-disk" ? outcome.answer : outcome;
		// The earlier write's own request reports its failure to the host; this one is answered with it.
		if (earlierOnDisk !== undefined)
			await earlierOnDisk.catch((error: unknown) => {
				throw notDurable(request.path, standingOnEarlier(settled, outcome), error);
			});
		if (settled.kind !== "refusing") return settled;
		return this.answerUnlocked(settled, { implicit, lastReadPart });
	}

	/**
	 * Moves (or renames) a note: the one guarded path for that, holding both notes' locks, so no write of either gets
	 * in between (guarded-move.ts says what it checks). Acknowledged once durable, like a write.
	 */
	async move(request: MoveRequest): Promise<MoveOutcome> {
		const client = clientOf(request.actor);
		// Captured before waiting for the locks, as a write's is.
		const heldSource =
			request.heldRevision !== undefined ? request.heldRevision : this.heldRevision(client, request.from);
		const heldDestination =
			request.heldDestination !== undefined ? request.heldDestination : this.heldRevision(client, request.to);
		const backupFolder = this.deps.settings().backupFolder;
		for (const [side, path] of [
			["source", request.from],
			["destination", request.to],
		] as const) {
			if (request.actor.kind === "agent" && isBackupPath(path, backupFolder))
				return relocationRefused({
					kind: "refused",
					side,
					path,
					refusal: { reason: "backup-read-only" },
					currentRevision: null,
					implicit: false,
				});
		}
		if (request.from === request.to) {
			const note = await this.deps.gateway.read(request.from);
			return note === null
				? { kind: "missing" }
				: { kind: "same-path", path: request.from, revision: revisionOf(note.content) };
		}
		let earlierOnDisk: Promise<void> | undefined;
		const locked = await this.locks.runAll([request.from, request.to], async () => {
			const step = await this.moves.moveLocked(request, heldSource, heldDestination);
			if (step.durable !== undefined)
				for (const path of [request.from, request.to]) this.onDisk.pending(path, step.durable);
			else earlierOnDisk = this.onDisk.of(request.from);
			return step;
		});
		if (locked.durable !== undefined)
			await locked.durable.catch((error: unknown) => {
				this.deps.onError?.(error);
				throw notDurable(request.from, { kind: "moved", to: request.to }, error);
			});
		// Nothing moved: the answer (a refusal, a missing note) stands; an earlier write's failure is its own answer.
		else await earlierOnDisk?.catch(() => undefined);
		return locked.outcome;
	}

	/**
	 * Copies a note: the destination is written through `write` (its lock, its check), with the source's text as it
	 * is now (guarded-copy.ts). A copy replaces nothing unless asked to, and then only with the destination's revision.
	 */
	copy(request: CopyRequest): Promise<CopyOutcome> {
		return copyNote(
			{
				gateway: this.deps.gateway,
				write: (write) => this.write(write),
				heldRevision: (client, path) => this.heldRevision(client, path),
			},
			request,
		);
	}

	/**
	 * Keeps the refused body and answers, with the note's lock released. Two refusals of one note may keep their
	 * bodies at once: each gets its own .bak (a new file, never replacing one) and its own record.
	 */
	private async answerUnlocked(
		refusing: Refusing,
		basis: RefusalBasis,
	): Promise<Extract<WriteOutcome, { kind: "refused" }>> {
		try {
			const outcome = await answerRefusal({ ...this.deps, backupNames: this.backupNames }, refusing.seen, basis);
			await this.after.handOver(outcome.conflict, refusing.landed.writes);
			return outcome;
		} finally {
			refusing.landed.stop();
		}
	}

	private async writeLocked(request: WriteRequest, basis: Basis): Promise<WriteOutcome | Refusing | AwaitingDisk> {
		const { path, operation } = request;
		const config = this.deps.settings();
		const mergeBase =
			request.merge === "auto" && config.allowAutoMerge && operation.kind === "replace"
				? await mergeBaseOf(this.deps.bases, request)
				: null;
		// A big replace's text is known before the atomic step: its revision is worked out now, a slice at a time, rather
		// than all at once inside the step (a small one is hashed there, at once, as before).
		const bodyRevision =
			operation.kind === "replace" && operation.body.length > SLICE_CHARS
				? await revisionInSlices(operation.body, this.deps.yieldToHost)
				: null;
		// A merge is computed outside the atomic step (it can take a while on a big note) against the note as the step
		// last saw it, and used only if the step still sees exactly that note.
		let merged: MergeOption["done"] = null;
		// Whether any step so far saw the note (see WritePlanInput.sawNote).
		let sawNote = false;
		for (let attempt = 1; ; attempt++) {
			const merge: MergeOption | null =
				mergeBase === null ? null : { base: mergeBase, mayMerge: attempt <= MERGE_ATTEMPTS, done: merged };
			const step = await this.mutate(path, request, (content) => {
				// The note is hashed here, once: the plan carries its revision to everything after the step.
				const current = noteStateOf(content);
				const decided = planWrite({
					current,
					sawNote,
					request: this.guardRequest(request, basis, current, config),
					bodyRevision,
					merge,
				});
				sawNote ||= current !== null;
				if (decided.kind === "write") this.deps.tracker.expect(path, decided.revision, historySource(request.actor));
				return mutationOf(decided);
			});
			const plan = step.result;
			if (plan.kind === "merge") {
				const result = await autoMergeInSlices(
					plan.base,
					plan.current.content,
					plan.body,
					this.deps.yieldToHost,
					this.deps.onError,
				);
				merged = { against: plan.current.revision, result };
				continue;
			}
			return carryOut(this.carryOutDeps, request, basis, plan, step);
		}
	}

	/** What the guard is asked, with the note the step sees (its revision decides whether the read expired). */
	private guardRequest(
		request: WriteRequest,
		basis: Basis,
		current: NoteState | null,
		config: RevisionGuardSettings,
	): GuardRequest {
		return {
			operation: request.operation,
			ifMatch: request.ifMatch,
			ifNoneMatch: request.ifNoneMatch,
			requireToken: config.requireToken || request.requireToken === true,
			readExpired:
				current !== null &&
				request.actor.kind === "agent" &&
				readExpired(this.deps, request.path, current.revision, request.ifMatch, config.readValidityMinutes),
			allowEmpty: request.allowEmpty === true || request.actor.kind === "person",
			implicit: basis.implicit,
		};
	}

	/**
	 * The gateway's atomic step. A note that another program kept changing under every attempt is a refusal like any
	 * stale write (the body is kept), not an error that would lose it.
	 */
	private async mutate(
		path: string,
		request: WriteRequest,
		decide: (current: string | null) => MutationPlan<WritePlan>,
	): Promise<MutationOutcome<WritePlan>> {
		try {
			return await this.deps.gateway.mutate(path, decide);
		} catch (error) {
			if (error instanceof NoteKeptChangingError)
				return refusedStep(
					{ reason: "stale", sentRevision: sentRevisions(request.ifMatch)[0] ?? null },
					error.lastSeen,
				);
			if (error instanceof NoteBusyError) return refusedStep({ reason: "note-in-use" }, error.lastSeen);
			throw error;
		}
	}
}

/** What the gateway is asked to do for a plan. */
function mutationOf(plan: WritePlan): MutationPlan<WritePlan> {
	if (plan.kind === "write") return { kind: "write", content: plan.content, result: plan };
	if (plan.kind === "delete") return { kind: "trash", result: plan };
	return { kind: "keep", result: plan };
}

function refusedStep(refusal: Refusal, lastSeen: string | null): MutationOutcome<WritePlan> {
	return { result: { kind: "refuse", refusal, current: noteStateOf(lastSeen), conflicted: null }, stat: null };
}

/** What a write that stood on an earlier, not durable write answers: what is in place, with that write's failure. */
function standingOnEarlier(
	settled: WriteOutcome | Refusing,
	outcome: WriteOutcome | Refusing | AwaitingDisk,
): NotDurableChange {
	if (settled.kind === "unchanged") return { kind: "unchanged", revision: settled.revision };
	const trashedTo =
		outcome.kind === "awaiting-disk" && outcome.inPlace.kind === "deleted" ? outcome.inPlace.trashedTo : null;
	return { kind: "deleted", trashedTo, failed: "earlier-write" };
}
