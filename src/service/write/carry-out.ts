/**
 * What a write's plan becomes once the gateway's atomic step ran it: the bookkeeping of a write or a delete, and the
 * answer. A refusal is only seen here (inside the note's lock); keeping its body and answering wait until the lock
 * is released (guarded-writer.ts).
 */
import { sentTokenKind } from "../../core/revision-tokens";
import type { WritePlan } from "../../core/write-plan";
import type { MutationOutcome } from "../../vault/gateway";
import type { Actor } from "../notes/actor";
import { seeRefusal, type RefusalDeps, type SeenRefusal } from "../refusals/refusal";
import type { HeldRead, ReadLedger } from "../stores/read-ledger";
import type { AwaitingDisk } from "./pending-durability";
import { basisSight, sightAfterWrite } from "./implicit-tokens";
import type { WriteBookkeeping } from "./write-bookkeeping";
import type { WriteOutcome, WriteRequest } from "./write-request";

export interface CarryOutDeps extends Pick<RefusalDeps, "tracker" | "onError"> {
	reads: ReadLedger;
	now: () => number;
	after: WriteBookkeeping;
}

/** What the client showed it had seen before this write: its own If-Match, or the read it is held to. */
export interface Basis {
	sent: WriteRequest["ifMatch"];
	held: HeldRead | null;
	/** The held read stands in for the If-Match the client did not send. */
	implicit: boolean;
}

/** A refusal decided inside the lock, answered once the lock is released. */
export interface Refusing {
	kind: "refusing";
	seen: SeenRefusal;
	landed: ReturnType<WriteBookkeeping["watchLanded"]>;
}

/** Carries out a plan once its step ran: bookkeeping and the answer (a refusal's is finished outside the lock). */
export async function carryOut(
	deps: CarryOutDeps,
	request: WriteRequest,
	basis: Basis,
	plan: Exclude<WritePlan, { kind: "merge" }>,
	step: Omit<MutationOutcome<WritePlan>, "result">,
): Promise<WriteOutcome | Refusing | AwaitingDisk> {
	const { path, actor, operation } = request;
	const { stat, durable } = step;
	switch (plan.kind) {
		case "write": {
			const { replaced, revision } = plan;
			if (replaced !== null) carryKeyReads(deps, actor, path, replaced.revision, revision);
			await deps.after.afterWrite(path, replaced, plan.content, revision, actor);
			const sight = sightAfterWrite({
				operation: operation.kind,
				merged: plan.merge !== null,
				unseenBody: request.unseenBody,
				replaced: replaced?.revision ?? null,
				...basis,
			});
			const written = {
				kind: "written",
				revision,
				sight,
				created: plan.created,
				stat,
				merged: plan.merge !== null,
				...(plan.merge !== null && plan.merge.rules.length > 0 ? { mergeRules: plan.merge.rules } : {}),
			} as const;
			return durable === undefined
				? written
				: { kind: "awaiting-disk", answer: written, inPlace: { kind: "written", revision }, durable };
		}
		case "unchanged": {
			const { revision } = plan.current;
			const sight = sightAfterWrite({
				operation: operation.kind,
				merged: false,
				unseenBody: request.unseenBody,
				replaced: revision,
				...basis,
			});
			return { kind: "unchanged", revision, sight };
		}
		case "delete": {
			await deps.after.afterDelete(path, plan.removed, actor);
			const trashedTo = step.trashedTo ?? null;
			return durable === undefined
				? { kind: "deleted" }
				: {
						kind: "awaiting-disk",
						answer: { kind: "deleted" },
						inPlace: { kind: "deleted", trashedTo, failed: "delete" },
						durable,
					};
		}
		case "inapplicable": {
			const currentRevision = plan.current.revision;
			return {
				kind: "inapplicable",
				...plan.failure,
				currentRevision,
				currentSight: basisSight(currentRevision, basis.sent, basis.held),
			};
		}
		case "refuse": {
			// Only this needs the lock; keeping the body and the rest of the answer wait until it is released.
			// What the client knew of the revision it sent decides what a complete diff from it lets it know of the note now.
			const sentSight = basis.implicit
				? (basis.held?.sight ?? "whole")
				: sentTokenKind(basis.sent) === "part"
					? "part"
					: "whole";
			const seen = seeRefusal(
				deps,
				request,
				plan.refusal,
				plan.current,
				plan.conflicted?.preview ?? null,
				plan.conflicted?.rules ?? [],
				sentSight,
			);
			return { kind: "refusing", seen, landed: deps.after.watchLanded(path) };
		}
	}
}

/**
 * A key is one agent: what it changes through one door moves the reads its other doors hold of exactly the revision
 * replaced (an MCP caller's write moves its key's REST read; a REST write moves the key's sessions' reads). One
 * session's write never moves another session's read: two windows of one agent that share a key stay apart.
 */
function carryKeyReads(deps: CarryOutDeps, actor: Actor, path: string, replaced: string, revision: string): void {
	if (actor.kind !== "agent") return;
	const now = deps.now();
	if (actor.keyClient !== undefined) deps.reads.carry(actor.keyClient, path, replaced, revision, now);
	else if (actor.client !== undefined)
		for (const session of deps.reads.clientsOf(path, `${actor.client}:`))
			deps.reads.carry(session, path, replaced, revision, now);
}
