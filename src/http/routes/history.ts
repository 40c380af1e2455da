/**
 * History and undo for people on the headless host (an agent key may call them too: the write is credited to that
 * key, and guarded exactly like its other writes).
 *   GET  /history/{path}[?offset&limit]            a page of the note's revisions, newest first
 *   GET  /history/{path}?revision=R[&offset]        one revision: its text if kept, and the diff from the one before
 *   POST /history/{path}/restore?revision=R         writes R back (If-Match: the note's revision now; required)
 *   POST /history/{path}/revert[?revision=R]        undoes the agent write that produced R (default: the latest);
 *                                                    for an agent's delete, recreates the note (If-None-Match: *)
 *   GET  /activity[?agent&limit]                    recent agent writes across the vault
 * History shows no note's content, so its revisions are change tags (they name a revision back in `revision=`, and
 * pass no If-Match); only a revision whose text an answer shows comes as itself (core/revision-tokens).
 */
import { parseEntityTagCondition } from "../../core/revision";
import { changeTagOf, etagFor, revisionField, tokenFor } from "../../core/revision-tokens";
import type { RevisionView } from "../../service/history/note-history";
import type { RestoreOutcome } from "../../service/history/note-history";
import type { RevertOutcome } from "../../service/history/agent-activity";
import { problem, refuse } from "../problems";
import { json, type ApiResponse, type JsonValue } from "../response";
import { actorOf, type RequestContext } from "../router";
import { headersValue } from "./headers";
import { resolvePath } from "./note-path";
import { respond } from "./write-answer";
import { revertMoveAnswer } from "./revert-move";

export async function getHistory(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const revision = unquoted(context.query.get("revision"));
	const offset = whole(context, "offset", 0);
	if (revision !== undefined) {
		const detail = await context.notes.undo.historyRevision(actorOf(context), path, revision, offset);
		if (detail.kind === "unknown") return answerUndo(context, path, { kind: "unknown" });
		const { view, content, diff } = detail;
		const more =
			diff?.nextOffset == null
				? {}
				: {
						truncated: true,
						nextOffset: diff.nextOffset,
						next: `${historyLink(path)}?revision=${encodeURIComponent(changeTagOf(view.revision))}&offset=${diff.nextOffset}`,
					};
		// This answer shows the revision's text (when kept), so it names that revision as itself.
		return json(200, {
			path,
			...viewForAgents(view, content !== null),
			content,
			diff: diff?.text ?? null,
			diffOffset: offset,
			...more,
			...(diff === null
				? {
						diffMissing:
							"The text of this revision or of the one before it is no longer kept, so no diff can be shown.",
					}
				: {}),
		});
	}
	const page = await context.notes.undo.history(actorOf(context), path, offset, whole(context, "limit", 20));
	if (!page) return problem("note-not-found", `There is no note at "${path}" and no history of one.`);
	const end = page.offset + page.revisions.length;
	const next = end < page.total ? { next: `${historyLink(path)}?offset=${end}` } : {};
	const current = page.currentRevision === null ? null : changeTagOf(page.currentRevision);
	return json(
		200,
		{ ...page, currentRevision: current, revisions: page.revisions.map((view) => viewForAgents(view, false)), ...next },
		page.currentRevision ? { ETag: etagFor(page.currentRevision, "none") } : {},
	);
}

/** A revision as history shows it: change tags, but for a revision whose text the same answer shows. */
function viewForAgents(view: RevisionView, textShown: boolean): Record<string, JsonValue> {
	return {
		...view,
		revision: tokenFor(view.revision, textShown ? "whole" : "none"),
		previous: view.previous === null ? null : changeTagOf(view.previous),
	};
}

export async function restoreRevision(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const revision = unquoted(context.query.get("revision"));
	if (!revision) return problem("bad-request", "Add ?revision=<revision> (one listed by GET /history/{path}).");
	const ifMatch = parseEntityTagCondition(headersValue(context, "if-match"));
	const ifNoneMatch = parseEntityTagCondition(headersValue(context, "if-none-match"));
	if (ifMatch.kind === "absent" && ifNoneMatch.kind !== "any") return precondition(path);
	const outcome = await context.notes.undo.restore(actorOf(context), path, revision, ifMatch, ifNoneMatch);
	return answerUndo(context, path, outcome);
}

export async function revertAgentWrite(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const revision = unquoted(context.query.get("revision"));
	const ifMatch = parseEntityTagCondition(headersValue(context, "if-match"));
	const ifNoneMatch = parseEntityTagCondition(headersValue(context, "if-none-match"));
	if (ifMatch.kind === "absent" && ifNoneMatch.kind !== "any") return precondition(path);
	const outcome = await context.notes.undo.revert(actorOf(context), path, revision, ifMatch, ifNoneMatch);
	if (outcome.kind === "write") return respond(context, path, outcome.outcome, "201");
	if (outcome.kind === "move") return revertMoveAnswer(outcome.undo);
	if (outcome.kind === "needs-merge") {
		const { sides } = outcome;
		const cap = context.notes.settings().maxDiffKB * 1024;
		// The whole preview carries every change the note made since the agent's write: only then is its revision handed.
		const shown = sides.preview.length <= cap;
		const writeIt = shown
			? `edit mergePreview and PUT /vault/${path} with If-Match: "${sides.mineRevision}"`
			: `GET /vault/${path}, make the change by hand, and PUT it with If-Match set to its ETag`;
		return problem(
			"revert-needs-merge",
			`The note changed after ${sides.agent}'s write, and taking that write out conflicts ` +
				`with the later changes (${sides.result.conflicts} conflict(s)). Nothing was written. Merge it in ${context.notes.hostName === "obsidian" ? "Obsidian" : "the note yourself"}, or ${writeIt}.`,
			{
				path,
				...revisionField("currentRevision", sides.mineRevision, shown ? "whole" : "none"),
				conflicts: sides.result.conflicts,
				mergePreview: shown ? sides.preview : null,
				...(!shown
					? {
							previewOmitted:
								"The merge preview is too large for one answer; GET the note's history to see both sides.",
						}
					: {}),
			},
		);
	}
	return answerUndo(context, path, outcome);
}

export async function listActivity(context: RequestContext): Promise<ApiResponse> {
	const agent = context.query.get("agent") ?? undefined;
	const entries = context.notes.undo.agentActivity(actorOf(context), whole(context, "limit", 50), agent);
	// Activity shows no content: its revisions are change tags.
	return json(200, {
		agent: agent ?? null,
		writes: entries.map((entry) => ({
			...entry,
			revision: changeTagOf(entry.revision),
			replaced: entry.replaced === null ? null : changeTagOf(entry.replaced),
			history: historyLink(entry.path),
		})),
	});
}

function answerUndo(
	context: RequestContext,
	path: string,
	outcome: RestoreOutcome | Exclude<RevertOutcome, { kind: "write" | "needs-merge" | "move" }>,
): ApiResponse {
	switch (outcome.kind) {
		case "unknown":
			return problem(
				"revision-not-found",
				`No revision (or agent write) like that is in the history of "${path}"; GET ${historyLink(path)} lists them.`,
				{ path },
			);
		case "not-retained":
			return problem(
				"revision-not-retained",
				`The text of that revision of "${path}" is no longer kept, so it cannot be put back. Nothing was written.`,
				{ path, revision: changeTagOf(outcome.revision) },
			);
		case "stale":
			return problem(
				"history-stale",
				outcome.currentRevision === null
					? `"${path}" no longer exists, so it is not the revision in If-Match. Nothing was written. ` +
							`To put a revision back anyway, retry with If-None-Match: * instead of If-Match.`
					: `"${path}" changed since the revision in If-Match (or If-Match did not name a revision ` +
							`you read). Nothing was written. GET /vault/${path} to see what it holds now, then ` +
							`retry with If-Match set to its ETag.`,
				{
					path,
					...(outcome.currentRevision === null
						? { currentRevision: null }
						: { changeTag: changeTagOf(outcome.currentRevision) }),
				},
			);
		case "missing":
			return problem(
				"note-not-found",
				`"${path}" no longer exists. Restore a revision with POST ${historyLink(path)}/restore?revision=… ` +
					`and If-None-Match: *.`,
				{ path },
			);
		case "nothing-replaced":
			return problem(
				"nothing-to-revert",
				`That agent write created "${path}" and the note changed since (or what the write ` +
					`replaced was never recorded), so Revert does not delete it. Nothing was written. DELETE /vault/${path} ` +
					`with If-Match if you do not want it.`,
				{ path },
			);
		case "exists":
			return problem(
				"revert-note-exists",
				`An agent deleted "${path}", and a note was created there since. Nothing was written. ` +
					`Compare them with GET ${historyLink(path)}; to put the deleted text back anyway, GET /vault/${path} and POST ${historyLink(path)}/restore?revision=${changeTagOf(outcome.deleted)} ` +
					`with If-Match set to its ETag.`,
				{ path, changeTag: changeTagOf(outcome.currentRevision), deletedRevision: changeTagOf(outcome.deleted) },
			);
		default:
			return respond(context, path, outcome, "201");
	}
}

function precondition(path: string): never {
	return refuse(
		"precondition-required",
		`Send If-Match with the note's current revision (the ETag of GET /vault/${path}), ` +
			`or If-None-Match: * to undo a delete, so an undo never overwrites a newer note blindly. ` +
			`Nothing was written.`,
	);
}

function historyLink(path: string): string {
	return `/history/${path.split("/").map(encodeURIComponent).join("/")}`;
}

function whole(context: RequestContext, name: string, fallback: number): number {
	const raw = context.query.get(name);
	if (raw === null) return fallback;
	const value = Number(raw);
	if (!Number.isSafeInteger(value) || value < 0) refuse("bad-request", `${name} must be a whole number from 0.`);
	return value;
}

function unquoted(value: string | null): string | undefined {
	return value?.replace(/^(W\/)?"|"$/g, "") || undefined;
}
