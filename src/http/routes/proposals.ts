/**
 * GET /proposals and GET /proposals/{id} (optionally long-polling until the person decides). A key sees only its own
 * proposals: another key's id is answered as unknown. There is no route to accept or reject: only the person decides.
 */
import { PROPOSAL_STATUSES, type ProposalRecord, type ProposalStatus } from "../../core/proposals";
import { proposalForAgents } from "../../service/proposals/proposal-view";
import { problem, refuse } from "../problems";
import { json, type ApiResponse, type JsonValue } from "../response";
import { actorOf, type RequestContext } from "../router";
import { decodeId, waitNotSpared, waitOf } from "./record-routes";

export async function listProposals(context: RequestContext): Promise<ApiResponse> {
	const status = context.query.get("status");
	if (status !== null && !PROPOSAL_STATUSES.includes(status as ProposalStatus)) {
		return problem("bad-request", `status must be one of ${PROPOSAL_STATUSES.join(", ")}.`);
	}
	const records = context.notes.proposals.listFor(actorOf(context), (status as ProposalStatus | null) ?? undefined);
	return json(200, { proposals: records.map(toJson) });
}

export async function getProposal(context: RequestContext): Promise<ApiResponse> {
	const record = findRecord(context);
	const wait = waitOf(context.query.get("wait"));
	if ("refused" in wait) return wait.refused;
	if (wait.ms === null) return json(200, toJson(record));
	const outcome = await context.notes.proposals.awaitDecision(
		record,
		wait.ms,
		actorOf(context).client ?? "anonymous",
		context.signal,
	);
	return outcome.kind === "settled" ? json(200, toJson(outcome.record)) : waitNotSpared(outcome, "the proposal");
}

function findRecord(context: RequestContext): ProposalRecord {
	const id = decodeId(context.rest);
	if (id === null) return refuse("bad-request", "The proposal id is not valid percent-encoding.");
	const record = context.notes.proposals.getFor(actorOf(context), id);
	if (!record)
		return refuse(
			"proposal-not-found",
			`This key has no proposal "${id.slice(0, 100)}". List its proposals with GET /proposals.`,
		);
	return record;
}

/** Revisions in a record are change tags: it shows no content (service/proposals/proposal-view.ts). */
function toJson(record: ProposalRecord): JsonValue {
	return { ...proposalForAgents(record) };
}
