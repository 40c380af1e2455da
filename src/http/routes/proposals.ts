/**
 * GET /proposals and GET /proposals/{id} (optionally long-polling until the person decides). A key sees only its own
 * proposals: another key's id is answered as unknown. There is no route to accept or reject: only the person decides.
 */
import { PROPOSAL_STATUSES, type ProposalRecord, type ProposalStatus } from "../../core/proposals";
import { MAX_WAIT_MS } from "../../service/conflict-waits";
import { proposalForAgents } from "../../service/proposal-view";
import { problem, refuse } from "../problems";
import { json, type ApiResponse, type JsonValue } from "../response";
import { actorOf, type RequestContext } from "../router";

const MAX_WAIT_SECONDS = MAX_WAIT_MS / 1000;

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
	const waitParam = context.query.get("wait");
	if (waitParam === null) return json(200, toJson(record));
	const wait = Number(waitParam);
	if (waitParam.trim() === "" || !Number.isFinite(wait) || wait < 0 || wait > MAX_WAIT_SECONDS) {
		return problem("bad-request", `wait must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}.`);
	}
	const outcome = await context.notes.proposals.awaitDecision(record, wait * 1000, actorOf(context).client ?? "anonymous", context.signal);
	if (outcome.kind === "settled") return json(200, toJson(outcome.record));
	const retry = { "Retry-After": String(outcome.retryAfterSeconds) };
	return outcome.who === "caller"
		? problem("too-many-waits", `This key already has as many long-polls under way as it may; nothing was waited for. Retry in ${outcome.retryAfterSeconds} s, or GET the proposal without wait.`, {}, retry)
		: problem("server-busy", `The server already holds as many long-polls as it allows; nothing was waited for. Retry in ${outcome.retryAfterSeconds} s.`, {}, retry);
}

function findRecord(context: RequestContext): ProposalRecord {
	const id = decodeId(context.rest);
	if (id === null) return refuse("bad-request", "The proposal id is not valid percent-encoding.");
	const record = context.notes.proposals.getFor(actorOf(context), id);
	if (!record) return refuse("proposal-not-found", `This key has no proposal "${id.slice(0, 100)}". List its proposals with GET /proposals.`);
	return record;
}

function decodeId(raw: string): string | null {
	try {
		return decodeURIComponent(raw);
	} catch {
		return null;
	}
}

/** Revisions in a record are change tags: it shows no content (service/proposal-view.ts). */
function toJson(record: ProposalRecord): JsonValue {
	return { ...proposalForAgents(record) };
}
