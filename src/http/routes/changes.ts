/** GET /changes/{path}?since=<revision>: what changed in a note since a revision the agent saw. */
import { unifiedDiff } from "../../core/diff/unified";
import { etagOf, revisionOf } from "../../core/revision";
import { problem } from "../problems";
import { json, type ApiResponse } from "../response";
import type { RequestContext } from "../router";
import { resolvePath } from "./note-path";

export async function noteChanges(context: RequestContext): Promise<ApiResponse> {
	const resolved = resolvePath(context, "note");
	if (!resolved.ok) return resolved.response;
	const since = context.query.get("since")?.replace(/^(W\/)?"|"$/g, "");
	if (!since) return problem("bad-request", "Add ?since=<revision> (the ETag you last saw, quotes optional).");
	const snapshot = await context.guard.gateway.read(resolved.path);
	if (!snapshot) return problem("note-not-found", `There is no note at "${resolved.path}".`);
	const base = await context.guard.bases.get(since);
	if (base === null) {
		return problem("base-not-retained", `Revision ${since} of "${resolved.path}" is not retained (or never existed), so no diff can be made. GET the note to start from its current content.`, { path: resolved.path });
	}
	const revision = await context.guard.tracker.served(snapshot);
	const diff = unifiedDiff(base, snapshot.content, { fromLabel: `a/${resolved.path}@${since.slice(0, 12)}`, toLabel: `b/${resolved.path}` });
	return json(200, { path: resolved.path, since, revision, changed: since !== revisionOf(snapshot.content), diff }, { ETag: etagOf(revision) });
}
