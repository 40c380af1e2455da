/** GET /conflicts and GET /conflicts/{id}: the record of every refused write. */
import type { ConflictRecord, ConflictStatus } from "../../core/conflicts";
import { problem } from "../problems";
import { json, type ApiResponse, type JsonValue } from "../response";
import type { RequestContext } from "../router";

const STATUSES: ConflictStatus[] = ["open", "resolved", "dismissed"];

export async function listConflicts(context: RequestContext): Promise<ApiResponse> {
	const status = context.query.get("status");
	if (status !== null && !STATUSES.includes(status as ConflictStatus)) {
		return problem("bad-request", `status must be one of ${STATUSES.join(", ")}.`);
	}
	const records = context.guard.conflicts.list(status ? { status: status as ConflictStatus } : undefined);
	return json(200, { conflicts: records.map(toJson) });
}

export async function getConflict(context: RequestContext): Promise<ApiResponse> {
	let id: string;
	try {
		id = decodeURIComponent(context.rest);
	} catch {
		return problem("bad-request", "The conflict id is not valid percent-encoding.");
	}
	const record = context.guard.conflicts.get(id);
	if (!record) return problem("conflict-not-found", `There is no conflict "${id}". List them with GET /conflicts.`);
	return json(200, toJson(record));
}

function toJson(record: ConflictRecord): JsonValue {
	return { ...record };
}
