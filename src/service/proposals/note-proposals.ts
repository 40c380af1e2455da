/**
 * Proposals as the service offers them (AgentNotes.proposals). An agent sees only its own key's proposals and may
 * wait for the person's decision; only the person decides. Accepting writes through AgentNotes.write as the person,
 * replacing exactly the revision the proposal was made against (or the one the person merged with): a note that moved
 * on since is never overwritten, the person is handed the three-way merge instead.
 */
import type { BaseStore } from "../stores/base-store";
import type { ProposalRecord, ProposalStatus } from "../../core/proposals";
import type { ProposalLog } from "../stores/proposal-log";
import { parseEntityTagCondition, revisionOf } from "../../core/revision";
import type { VaultGateway } from "../../vault/gateway";
import { PERSON, type AgentActor } from "../notes/actor";
import type { ConflictWaits, WaitOutcome } from "../conflicts/conflict-waits";
import type { ProposalStore } from "./proposal-store";
import type { WriteOutcome, WriteRequest } from "../write/write-request";

export interface NoteProposalsDeps {
	store: ProposalStore;
	log: ProposalLog;
	gateway: VaultGateway;
	bases: BaseStore;
	waits: ConflictWaits;
	/** AgentNotes.write: the one way to change a note. */
	write: (request: WriteRequest) => Promise<WriteOutcome>;
	/** The key's scope, decided by the scope gate: a proposal on a note the key can no longer see is not shown to it. */
	visibility: (actor: AgentActor) => (path: string) => boolean;
	/** The person's "after resolving, the agent's .bak note" setting is "trash". */
	trashBackupAfterAccept: () => boolean;
	/** Resolves once every proposal change so far is durable: a decision is reported once it is saved. */
	saved: () => Promise<void>;
	now: () => number;
}

/** What the person reviews: the note the proposal was made against, the note now, and the proposed text. */
export interface ProposalReview {
	record: ProposalRecord;
	/** The note the proposal was made against; null when it did not exist, or is no longer kept. */
	base: string | null;
	/** The note now; null when it does not exist. */
	mine: string | null;
	mineRevision: string | null;
	/** The proposed text; null only if both the kept copy and the .bak are gone. */
	theirs: string | null;
	/** The note changed since the proposal was made: accepting is a three-way merge. */
	changedSince: boolean;
}

export type AcceptOutcome =
	| { kind: "accepted"; record: ProposalRecord; revision: string }
	/** The note is not the revision accepted against: nothing was written; merge against this review and accept again. */
	| { kind: "changed"; review: ProposalReview }
	| { kind: "failed"; message: string };

export type RejectOutcome = { kind: "rejected"; record: ProposalRecord } | { kind: "failed"; message: string };

export interface AcceptChoice {
	/** The text to write (the person's edit, or a merge); the proposal as sent when absent. */
	text?: string;
	/** The note revision the person saw when choosing `text` (null: no note); the proposal's base when absent. */
	against?: string | null;
	/** A note to the agent. */
	note?: string;
}

export class NoteProposals {
	/** Accepts under way, so a second click does not write twice. */
	private readonly deciding = new Set<string>();

	constructor(private readonly deps: NoteProposalsDeps) {}

	/**
	 * The key's own proposals on notes it may still see, newest first (another key's are never listed; nor is one on
	 * a note the key's read list no longer covers: that note does not exist for it).
	 */
	listFor(actor: AgentActor, status?: ProposalStatus): ProposalRecord[] {
		const visible = this.deps.visibility(actor);
		return this.deps.log
			.list({ agent: actor.name, ...(status ? { status } : {}) })
			.filter((record) => visible(record.path));
	}

	/** One of the key's own proposals on a note it may see; any other id is as unknown as one that never existed. */
	getFor(actor: AgentActor, id: string): ProposalRecord | undefined {
		const record = this.deps.log.get(id);
		return record?.agent === actor.name && this.deps.visibility(actor)(record.path) ? record : undefined;
	}

	/** Waits (bounded per caller and in all, with conflicts' long-polls) until the proposal is decided, or `ms` pass. */
	awaitDecision(
		record: ProposalRecord,
		ms: number,
		caller: string,
		signal?: AbortSignal,
	): Promise<WaitOutcome<ProposalRecord>> {
		const seen = record.status;
		// A decision is final: waiting on a decided proposal answers at once.
		return this.deps.waits.waitFor(record, seen === "pending" ? ms : 0, caller, signal, {
			watch: (changed) =>
				this.deps.log.onChange((change) => {
					if (change.id === record.id && change.status !== seen) changed();
				}),
			latest: () => this.deps.log.get(record.id) ?? record,
		});
	}

	/** Every proposal, newest first (the person's list). */
	list(status?: ProposalStatus): ProposalRecord[] {
		return this.deps.log.list(status ? { status } : {});
	}

	get(id: string): ProposalRecord | undefined {
		return this.deps.log.get(id);
	}

	pendingCount(): number {
		return this.deps.log.pendingCount();
	}

	/** Follows every new proposal and decision; returns the unsubscriber. */
	onChange(listener: (record: ProposalRecord) => void): () => void {
		return this.deps.log.onChange(listener);
	}

	/** The three texts the person reviews, as they are now. */
	async review(id: string): Promise<ProposalReview | null> {
		const record = this.deps.log.get(id);
		if (!record) return null;
		const { bases, gateway } = this.deps;
		const note = await gateway.read(record.path);
		const mine = note?.content ?? null;
		const mineRevision = mine === null ? null : revisionOf(mine);
		const base =
			record.baseRevision === null
				? null
				: mineRevision === record.baseRevision
					? mine
					: await bases.get(record.baseRevision).catch(() => null);
		let theirs = await bases.get(record.proposedRevision).catch(() => null);
		if (theirs === null) {
			const kept = await gateway.read(record.backupPath).catch(() => null);
			if (kept && revisionOf(kept.content) === record.proposedRevision) theirs = kept.content;
		}
		return { record, base, mine, mineRevision, theirs, changedSince: mineRevision !== record.baseRevision };
	}

	/**
	 * The person accepts: `choice.text` (or the proposal as sent) is written as the person over exactly
	 * `choice.against` (or the proposal's base). It is "accepted" when what was written is the proposal as sent,
	 * "accepted-with-edits" otherwise.
	 */
	async acceptAsPerson(id: string, choice: AcceptChoice = {}): Promise<AcceptOutcome> {
		if (this.deciding.has(id)) return { kind: "failed", message: "This proposal is being accepted already." };
		this.deciding.add(id);
		try {
			return await this.accept(id, choice);
		} finally {
			this.deciding.delete(id);
		}
	}

	/**
	 * With the "trash" setting, an accepted proposal's .bak goes to the trash (through the guard, as the person, with
	 * its own token) while it is exactly the proposal: one the person edited stays. A rejected proposal's .bak always
	 * stays, as it is the only copy of the agent's text.
	 */
	private async trashBackup(record: ProposalRecord): Promise<void> {
		if (!this.deps.trashBackupAfterAccept()) return;
		const backup = await this.deps.gateway.read(record.backupPath).catch(() => null);
		if (!backup || revisionOf(backup.content) !== record.proposedRevision) return;
		await this.deps.write({
			path: record.backupPath,
			operation: { kind: "delete" },
			ifMatch: parseEntityTagCondition(`"${record.proposedRevision}"`),
			ifNoneMatch: parseEntityTagCondition(undefined),
			actor: PERSON,
		});
	}

	/** The person says no: nothing is written; the agent learns it, with the note when there is one. The .bak stays. */
	async rejectAsPerson(id: string, note?: string): Promise<RejectOutcome> {
		const record = this.deps.log.get(id);
		if (!record) return { kind: "failed", message: "This proposal no longer exists." };
		if (record.status !== "pending" || this.deciding.has(id))
			return {
				kind: "failed",
				message: `This proposal is ${record.status === "pending" ? "being accepted" : `already ${record.status}`}.`,
			};
		const decided = this.deps.log.decide(id, "rejected", this.time(), note === undefined ? {} : { note });
		if (!decided) return { kind: "failed", message: "This proposal was decided already." };
		await this.deps.saved();
		return { kind: "rejected", record: decided };
	}

	private async accept(id: string, choice: AcceptChoice): Promise<AcceptOutcome> {
		const review = await this.review(id);
		if (!review) return { kind: "failed", message: "This proposal no longer exists." };
		const { record } = review;
		if (record.status !== "pending") return { kind: "failed", message: `This proposal is already ${record.status}.` };
		if (review.theirs === null)
			return {
				kind: "failed",
				message: `The proposed text is no longer available: its .bak note (${record.backupPath}) was changed or removed.`,
			};
		const against = choice.against !== undefined ? choice.against : record.baseRevision;
		// The note moved on since: never write over what the person has not seen; they merge first.
		if (review.mineRevision !== against) return { kind: "changed", review };
		const text = choice.text ?? review.theirs;
		const outcome = await this.deps.write({
			path: record.path,
			operation: { kind: "replace", body: text },
			ifMatch: parseEntityTagCondition(against === null ? undefined : `"${against}"`),
			ifNoneMatch: parseEntityTagCondition(against === null ? "*" : undefined),
			actor: PERSON,
		});
		if (outcome.kind !== "written" && outcome.kind !== "unchanged") {
			// Refused: the note changed between the look and the write (or vanished). Merge again.
			const again = await this.review(id);
			return again
				? { kind: "changed", review: again }
				: { kind: "failed", message: "This proposal no longer exists." };
		}
		const status = text === review.theirs ? "accepted" : "accepted-with-edits";
		const decided = this.deps.log.decide(id, status, this.time(), {
			acceptedRevision: outcome.revision,
			...(choice.note === undefined ? {} : { note: choice.note }),
		});
		if (!decided) return { kind: "failed", message: "This proposal was decided meanwhile; the note was written." };
		await this.deps.saved();
		await this.trashBackup(decided);
		return { kind: "accepted", record: decided, revision: outcome.revision };
	}

	private time(): string {
		return new Date(this.deps.now()).toISOString();
	}
}
