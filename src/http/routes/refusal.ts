/**
 * Renders a refusal report (service/refusals/refusal-report.ts) as the problem response that tells the agent exactly what
 * happened and what to do next, in REST's verbs (GET, PUT, If-Match).
 */
import type { Refusal } from "../../core/guard";
import {
	backupReadOnlySentence,
	capitalized,
	contentLossSentence,
	emptyBodySentence,
	goneSentence,
	keptSentence,
	noteInUseSentence,
	notFoundSentence,
	readExpiredSentence,
	staleSentence,
} from "../../core/refusal-wording";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import { etagFor } from "../../core/revision-tokens";
import type { KeptRecord } from "../../service/refusals/refusal-report";
import { currentFields, type Refused } from "../../service/refusals/stale-facts";
import { problem, problemOf } from "../problems";
import type { ApiResponse, JsonValue } from "../response";
import type { RequestContext } from "../router";
import { changesLink } from "./changes";

export function refusalResponse(context: RequestContext, path: string, outcome: Refused): ApiResponse {
	const { currentRevision, currentSight, report } = outcome;
	const { refusal, kept: record } = report;
	const quoted = `"${path}"`;
	const done = context.method === "DELETE" ? "deleted" : "written";
	// A client that sent no If-Match was held to the revision it last read: say so, or the 412 makes no sense to it.
	const heldTo = report.implicit
		? "You sent no If-Match, so your last read of this note was used as your revision. "
		: "";
	// A token only with the content it names: unless this answer carries every change since what the client saw, the
	// ETag is a change tag (it tells that the note changed; it passes no If-Match).
	const headers: Record<string, string> = currentRevision ? { ETag: etagFor(currentRevision, currentSight) } : {};
	const current = currentFields(outcome);
	const kept = keptSentence(record, (backup) => `"${backup}"`);
	const keptFields = keptFieldsOf(record);
	const retry = retryWording(context.method);
	// The problem type is the refusal's code, the same on every surface (core/refusal-codes.ts).
	const name = problemOf(report.code);
	switch (refusal.reason) {
		case "token-required":
			return problem(
				name,
				tokenRequired(context.method, path, refusal, retry),
				{
					path,
					...current,
					...(refusal.sent ? { sentToken: refusal.sent } : {}),
					...(refusal.lastReadPart ? { lastReadPart: true } : {}),
				},
				headers,
			);
		case "stale":
			return staleResponse(context, path, outcome, heldTo, kept, keptFields, headers);
		case "read-expired":
			return problem(
				name,
				`${heldTo}${capitalized(readExpiredSentence(quoted, "written"))}${kept} GET the note ` +
					`again, check that your change still fits, and retry with the fresh ETag.`,
				{ path, sentRevision: report.expiredRevision, ...current, ...keptFields },
				headers,
			);
		case "exists":
			return problem(
				name,
				`${quoted} already exists and If-None-Match refused to replace it; nothing was written.${kept} ` +
					`GET it and update it with If-Match, or choose another path.`,
				{ path, ...current, ...keptFields },
				headers,
			);
		case "content-loss":
			return problem(
				name,
				`${capitalized(contentLossSentence(quoted, refusal.currentLength, refusal.newLength))}${kept} ` +
					`If you mean to replace the note, GET it and PUT again with If-Match set to its ETag.`,
				{ path, ...current, ...keptFields },
				headers,
			);
		case "empty-body":
			return problem(
				name,
				`${capitalized(emptyBodySentence(quoted, "body", refusal.currentLength))} An empty ` +
					`body is usually a file that was not found (curl --data-binary @missing-file). If ` +
					`you mean to empty the note, send the same request with the header Allow-Empty: true.`,
				{ path, ...current },
				headers,
			);
		case "note-in-use":
			return problem(
				name,
				`${noteInUseSentence(quoted, done)}${kept} Retry once the person has finished there, ` +
					`with If-Match set to the ETag of a fresh GET.`,
				{ path, ...current, ...keptFields },
				headers,
			);
		case "backup-read-only":
			return problem(
				name,
				`${backupReadOnlySentence(quoted, done)} Write to the note it belongs to instead ` +
					`(the person keeps or deletes backups).`,
				{ path },
			);
		case "not-found":
			return problem(name, notFoundSentence(quoted, done), { path });
		case "malformed-condition":
			return problem(
				name,
				`The ${refusal.header} header is not a valid entity-tag list; nothing was written. ` +
					`Send the ETag exactly as received, quotes included (weak W/ tags never satisfy If-Match).`,
				{ path },
			);
		case "scope-forbidden":
			return problem(name, `${scopeRuleSentence(refusal)} Nothing was ${done}. ${scopeNextStep(refusal)}`, {
				path,
				...scopeFacts(refusal),
			});
	}
}

/** What was kept, as fields of the problem body. */
function keptFieldsOf(kept: KeptRecord | null): Record<string, JsonValue> {
	if (kept === null) return {};
	return {
		conflictId: kept.conflictId,
		backupPath: kept.backupPath,
		...(kept.backupError ? { backupError: kept.backupError } : {}),
		...(kept.recordError ? { recordError: kept.recordError } : {}),
	};
}

function staleResponse(
	context: RequestContext,
	path: string,
	outcome: Refused,
	heldTo: string,
	kept: string,
	keptFields: Record<string, JsonValue>,
	headers: Record<string, string>,
): ApiResponse {
	const { currentRevision, changes, mergePreview, report } = outcome;
	const retry = retryWording(context.method);
	const done = context.method === "DELETE" ? "deleted" : "written";
	const merge =
		mergePreview !== null
			? "Your changes and the newer ones overlap, so they could not be merged automatically. " +
				"`mergePreview` shows the attempt with conflict markers. "
			: "";
	const what = currentRevision === null ? goneSentence(`"${path}"`, done) : staleSentence(`"${path}"`, done);
	const next =
		report.next.kind === "create-again"
			? " To create it again, PUT without If-Match."
			: report.next.kind === "nothing-to-do"
				? ""
				: report.next.kind === "retry-with-revision"
					? ` The \`changes\` field is every change from the revision you sent to the note now: ${retry.rebase} ` +
						`with If-Match set to currentRevision.`
					: changes
						? ` The \`changes\` field is the start of the diff from the revision you sent to the ` +
							`note now, cut at the answer size limit (GET changesNext for the rest). It is not ` +
							`all of the note, so it carries no revision to write with: GET the note, ${retry.read} with its ETag.`
						: ` GET the note, ${retry.read} with its ETag.`;
	const previewCut =
		mergePreview?.truncated && report.kept
			? ` The merge preview was cut at the answer size limit; GET /conflicts/${encodeURIComponent(report.kept.conflictId)}/merge for all of it.`
			: "";
	const pages = report.changesNext
		? {
				changesTruncated: true,
				changesNext: changesLink(path, report.changesNext.since, report.changesNext.to, report.changesNext.offset),
			}
		: {};
	return problem(
		problemOf(report.code),
		heldTo + merge + what + kept + next + previewCut,
		{ path, ...report.facts, ...keptFields, ...pages, ...(report.implicit ? { implicitRevision: true } : {}) },
		headers,
	);
}

/** Why a write needs a token it did not send, and how to get one: read the note (the whole note to replace or delete it). */
function tokenRequired(
	method: string,
	path: string,
	refusal: Extract<Refusal, { reason: "token-required" }>,
	retry: { read: string },
): string {
	const act = method === "DELETE" ? "deleted" : "written";
	const read =
		method === "DELETE"
			? `GET the note, then send DELETE with If-Match set to its ETag`
			: `GET the note, ${retry.read} with If-Match set to its ETag`;
	if (refusal.sent === "change-tag") {
		return (
			`The If-Match you sent is a change tag (from a folder listing, a HEAD, a 428 or a ` +
			`history or conflict record). It tells that "${path}" changed, but proves nothing ` +
			`about what you read, so nothing was ${act}. ${read}.`
		);
	}
	if (refusal.sent === "part-token") {
		return (
			`The If-Match you sent came with part of "${path}" (a document map's version, a section ` +
			`read, or the answer to a write of part of it). It can PATCH that part, but not replace ` +
			`or delete the whole note, whose rest you have not read; nothing was ${act}. ${read}.`
		);
	}
	if (refusal.lastReadPart) {
		return (
			`You sent no If-Match, and your last read of "${path}" showed only part of it (a ` +
			`document map or a section), so it cannot stand for the whole note; nothing was ${act}. ${read}.`
		);
	}
	if (refusal.wildcard)
		return `If-Match: * proves nothing about which version of "${path}" you read, so nothing was ${act}. ${read}.`;
	if (method === "DELETE") return `Deleting "${path}" needs the revision you read. ${read}.`;
	return (
		`"${path}" already exists and you have not read it (or your read was forgotten or ` +
		`too old), so nothing was written. GET the note first, ${retry.read} (ideally with ` +
		`If-Match set to its ETag).`
	);
}

/** PATCH is computed here on the note now, so its retry is the same PATCH; DELETE's retry is a DELETE, not a PUT. */
function retryWording(method: string): { read: string; rebase: string } {
	if (method === "PATCH")
		return {
			read: "check that your patch still fits what it holds now, then send the PATCH again",
			rebase: "check that your patch still fits, then send the PATCH again",
		};
	if (method === "DELETE")
		return {
			read: "check it is still what you mean to delete, then send DELETE again",
			rebase: "check it is still what you mean to delete, then send DELETE again",
		};
	return {
		read: "re-apply your change to what it holds now, then PUT again",
		rebase: "apply your edit on top of the current content and PUT again",
	};
}
