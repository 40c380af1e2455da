/**
 * The guarded move, run by the guarded writer while it holds both notes' locks (so no write of either through this
 * service gets in between). It asks of the note what a delete asks (a move takes all of it away from its path): its
 * whole revision, sent or read by this client. A note at the destination is replaced only when the client asked to
 * and sent (or had read) that note's revision too: it goes to the trash first, through the same check, recorded as
 * this client's delete. Then the gateway moves the note, checking it once more in the step that moves it, and never
 * over anything. A move carries no body, so a refused move keeps nothing: there is nothing of the client's to lose.
 */
import { randomBytes } from "crypto";
import { decideOn, noteStateOf, type GuardDecision, type NoteState } from "../../core/guard";
import type { HeldRead, ReadLedger } from "../stores/read-ledger";
import { revisionOf, sentRevisions, type EntityTagCondition } from "../../core/revision";
import type { RevisionHistory } from "../stores/revision-history";
import type { BaseStore } from "../stores/base-store";
import type { Sight } from "../../core/revision-tokens";
import type { RevisionGuardSettings } from "../../settings";
import { NoteBusyError, NoteKeptChangingError } from "../../vault/errors";
import type { MoveOutcome as GatewayMove, VaultGateway } from "../../vault/gateway";
import { clientOf, type Actor } from "../notes/actor";
import { basisSight, readExpired, withHeldRevision } from "../write/implicit-tokens";
import type { MoveOutcome, MoveRequest, RelocationRefused, RelocationRefusal } from "./move-request";
import { relocationRefused } from "../refusals/relocation-report";
import type { RevisionTracker } from "../revisions/revision-tracker";
import { afterMove, type WriteBookkeeping } from "../write/write-bookkeeping";

export interface GuardedMoveDeps {
	gateway: VaultGateway;
	tracker: RevisionTracker;
	history: RevisionHistory;
	bases: BaseStore;
	reads: ReadLedger;
	settings: () => RevisionGuardSettings;
	now: () => number;
	onError?: (error: unknown) => void;
}

/** A move decided inside the locks; `durable` (when present) is awaited once they are released. */
export type LockedMove = { outcome: MoveOutcome; durable?: Promise<void> };

/** How a client proves it may take a whole note: as for a delete, its whole revision (sent, or its last whole read). */
interface Proof {
	path: string;
	sent: EntityTagCondition;
	held: HeldRead | null;
	checked: EntityTagCondition;
	implicit: boolean;
	lastReadPart: boolean;
}

export class GuardedMove {
	constructor(
		private readonly deps: GuardedMoveDeps,
		private readonly after: WriteBookkeeping,
	) {}

	/** Call holding the locks of `request.from` and `request.to` (see GuardedWriter.move). */
	async moveLocked(
		request: MoveRequest,
		heldSource: HeldRead | null,
		heldDestination: HeldRead | null,
	): Promise<LockedMove> {
		const { gateway } = this.deps;
		const source = proofOf(request.actor, request.from, request.ifMatch, heldSource);
		const destination = proofOf(request.actor, request.to, request.destinationIfMatch, heldDestination);
		// Checked first, on the note as it is: a stale move must not cost the destination anything.
		const note = await gateway.read(request.from);
		if (note === null) return { outcome: { kind: "missing" } };
		const early = this.decide(request.actor, source, note.content);
		if (early.kind === "refuse") return { outcome: refused("source", source, early.refusal, note.content) };
		const change = randomBytes(8).toString("hex");
		const replaced = await this.replaceDestination(request, destination, change);
		if (replaced.kind === "refused") return { outcome: replaced };
		const trashed = replaced.kind === "trashed" ? { trashedDestination: request.to } : {};
		let decided: { content: string; decision: GuardDecision } | null = null;
		let moved: GatewayMove<null>;
		try {
			moved = await gateway.rename(request.from, request.to, (current) => {
				const decision = this.decide(request.actor, source, current);
				decided = current === null ? null : { content: current, decision };
				return decision.kind === "delete" ? { kind: "move", result: null } : { kind: "keep", result: null };
			});
		} catch (error) {
			if (!(error instanceof NoteKeptChangingError || error instanceof NoteBusyError)) throw error;
			return { outcome: refused("source", source, staleOf(source), error.lastSeen, trashed) };
		}
		const seen = decided as { content: string; decision: GuardDecision } | null;
		if (moved.kind === "destination-taken")
			return {
				outcome: relocationRefused({
					kind: "refused",
					side: "destination",
					path: request.to,
					refusal: { reason: "destination-exists" },
					currentRevision: null,
					implicit: false,
					...trashed,
				}),
			};
		if (moved.kind === "kept" || seen === null) {
			if (seen === null)
				return {
					outcome:
						replaced.kind === "trashed"
							? refused("source", source, staleOf(source), null, trashed)
							: { kind: "missing" },
				};
			const refusal = seen.decision.kind === "refuse" ? seen.decision.refusal : staleOf(source);
			return { outcome: refused("source", source, refusal, seen.content, trashed) };
		}
		return {
			outcome: await this.landed(request, source, seen.content, moved.rewritten, change, replaced.kind === "trashed"),
			durable: moved.durable,
		};
	}

	/** What a move that landed leaves: history (and the rewritten notes as the mover's writes), and the client's reads. */
	private async landed(
		request: MoveRequest,
		source: Proof,
		content: string,
		rewritten: { path: string; before: string; after: string }[],
		change: string,
		replaced: boolean,
	): Promise<MoveOutcome> {
		const { from, to, actor } = request;
		const revision = revisionOf(content);
		const notes = rewritten.map((note) => ({
			...note,
			beforeRevision: revisionOf(note.before),
			revision: revisionOf(note.after),
		}));
		await afterMove(this.after, this.deps, { from, to, content, revision, by: actor, change, rewritten: notes });
		const own = notes.find((note) => note.path === to);
		// The mover saw the whole note (its revision proves it): it may keep that revision if the note arrived unchanged.
		const sight: Sight =
			own === undefined && basisSight(revision, source.sent, source.held) === "whole" ? "whole" : "none";
		const client = clientOf(actor);
		if (client !== undefined) {
			this.deps.reads.forget(client, from);
			this.deps.reads.forget(client, to);
			if (sight === "whole") this.deps.reads.record(client, to, revision, this.deps.now(), "whole");
		}
		if (sight === "whole") this.deps.history.markServed(to, revision, this.deps.now());
		return {
			kind: "moved",
			from,
			to,
			revision: own?.revision ?? revision,
			sight,
			rewritten: notes
				.filter((note) => note.path !== to)
				.map(({ path, revision: written }) => ({ path, revision: written })),
			replaced,
		};
	}

	/**
	 * A note at the destination: refused unless the client asked to replace it and proved it has it whole; then it is
	 * trashed (checked again in the gateway's step), as this client's delete, part of the move's change.
	 */
	private async replaceDestination(
		request: MoveRequest,
		proof: Proof,
		change: string,
	): Promise<{ kind: "free" } | { kind: "trashed" } | RelocationRefused> {
		const { gateway } = this.deps;
		const there = await gateway.read(request.to);
		if (there === null) return { kind: "free" };
		if (!request.overwrite)
			return relocationRefused({
				kind: "refused",
				side: "destination",
				path: request.to,
				refusal: { reason: "destination-exists" },
				currentRevision: revisionOf(there.content),
				implicit: false,
			});
		let step: { decision: GuardDecision; seen: NoteState | null };
		try {
			const outcome = await gateway.mutate(request.to, (content) => {
				const seen = noteStateOf(content);
				const decision: GuardDecision =
					seen === null ? { kind: "unchanged" } : this.decideOn(request.actor, proof, seen);
				return { kind: decision.kind === "delete" ? "trash" : "keep", result: { decision, seen } };
			});
			step = outcome.result;
		} catch (error) {
			if (!(error instanceof NoteKeptChangingError || error instanceof NoteBusyError)) throw error;
			const reason: RelocationRefusal = error instanceof NoteBusyError ? { reason: "note-in-use" } : staleOf(proof);
			return refused("destination", proof, reason, error.lastSeen);
		}
		const { decision, seen } = step;
		if (decision.kind === "refuse") return refused("destination", proof, decision.refusal, seen?.content ?? null);
		if (decision.kind !== "delete" || seen === null) return { kind: "free" };
		await this.after.afterDelete(request.to, seen, request.actor, change);
		return { kind: "trashed" };
	}

	/** The guard's decision on taking all of `current` away: a delete's (a whole revision, always required). */
	private decide(actor: Actor, proof: Proof, content: string | null): GuardDecision {
		return this.decideOn(actor, proof, noteStateOf(content));
	}

	/** The same, on a note whose revision is known. */
	private decideOn(actor: Actor, proof: Proof, current: NoteState | null): GuardDecision {
		const config = this.deps.settings();
		const expired =
			current !== null &&
			actor.kind === "agent" &&
			readExpired(this.deps, proof.path, current.revision, proof.checked, config.readValidityMinutes);
		const decision = decideOn(current, {
			operation: { kind: "delete" },
			ifMatch: proof.checked,
			ifNoneMatch: { kind: "absent" },
			requireToken: true,
			readExpired: expired,
			implicit: proof.implicit,
		});
		if (decision.kind === "refuse" && decision.refusal.reason === "token-required" && proof.lastReadPart)
			return { kind: "refuse", refusal: { ...decision.refusal, lastReadPart: true } };
		return decision;
	}
}

function proofOf(actor: Actor, path: string, sent: EntityTagCondition, held: HeldRead | null): Proof {
	const { checked, implicit, lastReadPart } = withHeldRevision(
		{ path, operation: { kind: "delete" }, ifMatch: sent, ifNoneMatch: { kind: "absent" }, actor },
		held,
	);
	return { path, sent, held, checked: checked.ifMatch, implicit, lastReadPart };
}

/** The refusal of a note that changed under the check: stale against the revision the client sent (or held). */
function staleOf(proof: Proof): RelocationRefusal {
	return { reason: "stale", sentRevision: sentRevisions(proof.checked)[0] ?? null };
}

function refused(
	side: "source" | "destination",
	proof: Proof,
	refusal: RelocationRefusal,
	current: string | null,
	trashed: { trashedDestination?: string } = {},
): RelocationRefused {
	return relocationRefused({
		kind: "refused",
		side,
		path: proof.path,
		refusal,
		currentRevision: current === null ? null : revisionOf(current),
		implicit: proof.implicit,
		...trashed,
	});
}
