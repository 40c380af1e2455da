/** GET /conflicts, GET /conflicts/{id} (optionally long-polling), GET /conflicts/{id}/merge. */
import type { ConflictRecord, ConflictStatus } from "../../core/conflicts";
import { rulesFired, type MergeResult, type MergeRule } from "../../core/merge";
import { etagOf } from "../../core/revision";
import { conflictForAgents } from "../../service/conflicts/conflict-view";
import { problem, refuse } from "../problems";
import { json, type ApiResponse, type JsonValue } from "../response";
import { actorOf, type RequestContext } from "../router";
import { decodeId, waitNotSpared, waitOf } from "./record-routes";

const STATUSES: ConflictStatus[] = ["open", "resolved", "dismissed"];

export async function listConflicts(context: RequestContext): Promise<ApiResponse> {
	const status = context.query.get("status");
	if (status !== null && !STATUSES.includes(status as ConflictStatus)) {
		return problem("bad-request", `status must be one of ${STATUSES.join(", ")}.`);
	}
	const records = context.notes.listConflicts(
		actorOf(context),
		status ? { status: status as ConflictStatus } : undefined,
	);
	return json(200, { conflicts: records.map(toJson) });
}

export async function getConflict(context: RequestContext): Promise<ApiResponse> {
	const record = findRecord(context);
	const wait = waitOf(context.query.get("wait"));
	if ("refused" in wait) return wait.refused;
	if (wait.ms === null) return json(200, toJson(record));
	const outcome = await context.notes.awaitConflictStatus(
		record,
		wait.ms,
		actorOf(context).client ?? "anonymous",
		context.signal,
	);
	return outcome.kind === "settled" ? json(200, toJson(outcome.record)) : waitNotSpared(outcome, "the conflict");
}

export async function conflictMerge(context: RequestContext): Promise<ApiResponse> {
	const id = decodeId(context.rest.replace(/\/merge$/, ""));
	if (id === null) return problem("bad-request", "The conflict id is not valid percent-encoding.");
	const preview = await context.notes.conflictMerge(actorOf(context), id, context.query.get("diff3") !== null);
	if (!preview)
		return problem(
			"conflict-not-found",
			`There is no conflict "${id}" with a proposal still kept. List conflicts with GET /conflicts.`,
		);
	const { sides, result, text } = preview;
	const body = {
		id,
		path: sides.record.path,
		status: sides.record.status,
		clean: result.clean,
		conflicts: result.conflicts,
		baseRetained: sides.base !== null,
		currentRevision: sides.mineRevision,
		text,
		// Which markdown rules (not git's line rule) merged parts of `text`, so the agent can check those parts.
		...mergeRulesOf(result),
		detail: result.clean
			? "The automatic merge is clean. To apply it, PUT `text` to the note with If-Match set to currentRevision."
			: `The automatic merge has ${result.conflicts} conflict(s), shown with <<<<<<< mine ` +
				`/ ======= / >>>>>>> agent markers. Resolve them, then PUT the result to the note ` +
				`with If-Match set to currentRevision; that resolves this conflict.`,
	};
	return json(200, body, sides.mineRevision ? { ETag: etagOf(sides.mineRevision) } : {});
}

/** `mergeRules` when a markdown rule merged part of the result; nothing when git's rules alone decided. */
function mergeRulesOf(result: MergeResult): { mergeRules?: MergeRule[] } {
	const rules = rulesFired(result);
	return rules.length > 0 ? { mergeRules: rules } : {};
}

function findRecord(context: RequestContext): ConflictRecord {
	const id = decodeId(context.rest);
	if (id === null) return refuse("bad-request", "The conflict id is not valid percent-encoding.");
	const record = context.notes.conflict(actorOf(context), id);
	if (!record) return refuse("conflict-not-found", `There is no conflict "${id}". List them with GET /conflicts.`);
	return record;
}

/** Revisions in a record are change tags: it shows no content (service/conflicts/conflict-view.ts). */
function toJson(record: ConflictRecord): JsonValue {
	return { ...conflictForAgents(record) };
}
