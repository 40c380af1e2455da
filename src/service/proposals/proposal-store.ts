/**
 * The proposal store: where a change to a note the key may only propose to goes instead of the note (ProposalSink).
 * It works out what the change would make of the note as it is now, keeps that text as a .bak note (byte for byte,
 * never over anything) and a record of it (proposals.json / proposals.jsonl, durable before the agent is answered),
 * and leaves the note exactly as it was. The person decides later (note-proposals.ts).
 */
import { randomBytes } from "crypto";
import type { BaseStore } from "../stores/base-store";
import { newProposalId, type ProposalRecord } from "../../core/proposals";
import { type ProposalLog } from "../stores/proposal-log";
import { revisionOf } from "../../core/revision";
import { tokenKind } from "../../core/revision-tokens";
import type { RevisionGuardSettings } from "../../settings";
import type { VaultGateway } from "../../vault/gateway";
import type { BackupNames } from "../write/backup-names";
import type { ProposalOutcome, ProposalSink } from "./proposal-sink";
import { proposedChange } from "./proposal-content";
import { writeBackup } from "../write/refused-body";
import type { WriteOutcome, WriteRequest } from "../write/write-request";

export interface ProposalStoreDeps {
	gateway: VaultGateway;
	/** The proposed text and the note it was made against are kept here too, for the review's merge. */
	bases: BaseStore;
	proposals: ProposalLog;
	/** Resolves once every proposal change so far is durable; awaited before an agent is told of its proposal. */
	proposalsSaved: () => Promise<void>;
	/** .bak names being created right now, shared with the writer's refusals. */
	backupNames: BackupNames;
	settings: () => RevisionGuardSettings;
	now: () => number;
}

/**
 * The change was not proposed, because the writer would not have written it either (a patch that does not apply,
 * a malformed token, a note already holding it): `outcome` is what the writer would have answered. Nothing was kept.
 */
export class ProposalNotMade extends Error {
	constructor(readonly outcome: WriteOutcome) {
		super(`The change was not proposed: ${outcome.kind}.`);
		this.name = "ProposalNotMade";
	}
}

/** What a proposal is made against: a revision and its text, or nothing (the note does not exist). */
type Base = { revision: string; content: string } | null;

export class ProposalStore implements ProposalSink {
	/** The records, for the service that shows and decides them (note-proposals.ts). */
	readonly log: ProposalLog;

	constructor(private readonly deps: ProposalStoreDeps) {
		this.log = deps.proposals;
	}

	/** Resolves once every proposal change so far is durable. */
	saved(): Promise<void> {
		return this.deps.proposalsSaved();
	}

	/**
	 * Keeps an agent's change as a proposal; the note is not touched. Throws ProposalNotMade when there is nothing to
	 * propose (see proposal-content.ts), and an Error when the .bak cannot be written (then nothing is recorded).
	 */
	async propose(request: WriteRequest): Promise<ProposalOutcome> {
		const { actor, operation } = request;
		if (actor.kind !== "agent") throw new Error("Only an agent's change is proposed; the person's is written.");
		if (operation.kind === "delete") throw new Error("A delete carries no content, so it cannot be proposed.");
		const { gateway, bases, proposals } = this.deps;
		const note = await gateway.read(request.path);
		const path = note?.path ?? request.path;
		const current = note?.content ?? null;
		const change = proposedChange(current, request);
		if (change.kind === "not-proposed") throw new ProposalNotMade(change.outcome);
		const base = await this.baseOf(request, current);
		const proposedRevision = revisionOf(change.content);
		const again = await this.samePending(path, actor.name, proposedRevision, base?.revision ?? null);
		if (again) return outcomeOf(again);
		const when = new Date(this.deps.now());
		const backupPath = await this.deps.backupNames.inTurn(() =>
			writeBackup(
				{ gateway, backupNames: this.deps.backupNames, backupFolder: () => this.deps.settings().backupFolder },
				path,
				change.content,
				when,
			),
		);
		// Kept as bases too, so the review's merge never depends on the .bak staying untouched.
		await bases.retain(proposedRevision, change.content).catch(() => undefined);
		if (base !== null) await bases.retain(base.revision, base.content).catch(() => undefined);
		const record: ProposalRecord = {
			id: newProposalId(when, randomBytes(4).toString("hex")),
			path,
			agent: actor.name,
			time: when.toISOString(),
			operation: operation.kind,
			baseRevision: base?.revision ?? null,
			proposedRevision,
			backupPath,
			status: "pending",
		};
		// Adding it saves it (the log's save listener); the agent is answered once that save is done.
		proposals.add(record);
		await this.deps.proposalsSaved().catch(() => undefined);
		return outcomeOf(record);
	}

	/** Whether a revision must stay kept as a base: a pending proposal's text or the note it was made against. */
	pins(revision: string): boolean {
		return this.deps.proposals
			.list({ status: "pending" })
			.some((record) => record.proposedRevision === revision || record.baseRevision === revision);
	}

	/**
	 * The note as the agent last saw it. A whole-note replace names the revision it was based on (its If-Match, or the
	 * read it is held to): when that is older than the note and still kept, the proposal is made against it, so the
	 * person is shown a merge that keeps what changed since rather than a replace that would quietly undo it.
	 * Anything else was worked out on the note as it is now, so that is its base.
	 */
	private async baseOf(request: WriteRequest, current: string | null): Promise<Base> {
		if (current === null) return null;
		const now = { revision: revisionOf(current), content: current };
		if (request.operation.kind !== "replace") return now;
		const named = wholeRevisionSent(request);
		if (named === null || named === now.revision) return now;
		const content = await this.deps.bases.get(named).catch(() => null);
		return content === null || revisionOf(content) !== named ? now : { revision: named, content };
	}

	/** A retry of the same proposal (same agent, note, text and base) while it is pending is that proposal. */
	private async samePending(
		path: string,
		agent: string,
		proposedRevision: string,
		baseRevision: string | null,
	): Promise<ProposalRecord | null> {
		for (const record of this.deps.proposals.list({ status: "pending", path, agent })) {
			if (record.proposedRevision !== proposedRevision || record.baseRevision !== baseRevision) continue;
			const kept = await this.deps.gateway.read(record.backupPath).catch(() => null);
			if (kept && revisionOf(kept.content) === proposedRevision) return record;
		}
		return null;
	}
}

function outcomeOf(record: ProposalRecord): ProposalOutcome {
	return { kind: "proposed", id: record.id, path: record.path, backupPath: record.backupPath };
}

/** The whole revision a replace said it was based on: its strong If-Match, else the whole read it is held to. */
function wholeRevisionSent(request: WriteRequest): string | null {
	const { ifMatch, heldRevision } = request;
	if (ifMatch.kind === "tags") {
		const tag = ifMatch.tags.find((candidate) => !candidate.weak && tokenKind(candidate.opaque) === "whole");
		return tag?.opaque ?? null;
	}
	if (ifMatch.kind === "absent" && heldRevision?.sight === "whole") return heldRevision.revision;
	return null;
}
