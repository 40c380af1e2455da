/**
 * A guarded write's outcome as the CLI answers it: what landed, or why nothing did, where the refused text was kept
 * (the .bak and the conflict), what changed meanwhile (the same bounded diff a REST 412 carries), and the command to
 * run next.
 */
import type { WriteOutcome } from "../service/write/guarded-writer";
import { inapplicableCode } from "../core/refusal-codes";
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
} from "../core/refusal-wording";
import { revisionField } from "../core/revision-tokens";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../core/scope-refusal";
import { currentFields, type Refused } from "../service/refusals/stale-facts";
import { commandLine, failure, ok, type CliAnswer, type CliError } from "./answer";

/** The commands that write, each with what "retry" means for it. */
export type WriteAction = "write" | "append" | "edit" | "patch" | "delete" | "resolve";

export function writeAnswer(action: WriteAction, path: string, outcome: WriteOutcome): CliAnswer | CliError {
	switch (outcome.kind) {
		case "written":
			// A revision (or a part token, for a write whose whole result the caller has not seen) it may write with next.
			return ok({
				path,
				...revisionField("revision", outcome.revision, outcome.sight),
				created: outcome.created,
				...(outcome.merged
					? {
							merged: true,
							detail:
								"Your revision was stale, but your changes and the newer ones merged cleanly; the " +
								"merge was written. Read the note to see it (and for a revision that can replace it).",
						}
					: {}),
			});
		case "unchanged":
			return ok({ path, ...revisionField("revision", outcome.revision, outcome.sight), unchanged: true });
		case "deleted":
			return ok({ path, deleted: true });
		case "inapplicable": {
			const error = inapplicableCode(outcome.reason, action === "edit" ? "edit" : "patch");
			return failure(
				error,
				`${outcome.detail} Nothing was written.`,
				`Read the note again (${commandLine("read", { path })}) and fix the ${action === "edit" ? "old text" : "target"} to match it.`,
				{
					path,
					reason: outcome.reason,
					...revisionField("currentRevision", outcome.currentRevision, outcome.currentSight),
				},
			);
		}
		case "refused":
			return refusalAnswer(action, path, outcome);
		case "proposed":
			// Not an error: the change waits for the person. The CLI has no proposal command; the agent follows it over MCP or REST.
			return ok({
				path: outcome.path,
				proposed: true,
				proposalId: outcome.id,
				status: "pending",
				backupPath: outcome.backupPath,
				detail:
					`Not written yet: this key may only propose changes to "${outcome.path}", so your ` +
					`change waits for the person as proposal ${outcome.id}, kept byte for byte in "${outcome.backupPath}". ` +
					`The note stays as it is until they decide; follow it with GET /proposals/${encodeURIComponent(outcome.id)}?wait=60 ` +
					`or MCP's proposal_status.`,
			});
	}
}

function refusalAnswer(action: WriteAction, path: string, outcome: Refused): CliError {
	const { report } = outcome;
	const { refusal, kept: record, code } = report;
	const quoted = `"${path}"`;
	const done = action === "delete" ? "deleted" : "written";
	const current = currentFields(outcome);
	const read = commandLine("read", { path });
	const kept = keptSentence(record, (backup) => `"${backup}"`, record ? `conflict ${record.conflictId}` : "");
	const keptFields = {
		...(record ? { conflictId: record.conflictId, backupPath: record.backupPath } : {}),
		...(record?.backupError ? { backupError: record.backupError } : {}),
		...(record?.recordError ? { recordError: record.recordError } : {}),
	};
	const redo =
		`Read it again (${read}), re-apply your change to the content it returns, then run ${action === "resolve" ? "revision-guard:write" : `revision-guard:${action}`} ` +
		`again with revision=<the revision it returned>.`;
	switch (refusal.reason) {
		case "stale":
			return staleAnswer(action, path, outcome, kept, keptFields);
		case "token-required": {
			const what =
				refusal.sent === "change-tag"
					? "revision= is a change tag (from a listing or a conflict record), which proves nothing about what you read"
					: refusal.sent === "part-token"
						? "revision= came with part of the note (a patch's answer), which is not enough to replace or delete all of it"
						: `${action === "delete" ? "deleting" : "replacing"} it needs the revision you read`;
			return failure(code, `${quoted} already exists, and ${what}; nothing was ${done}.`, `${redo}`, {
				path,
				...current,
			});
		}
		case "exists":
			return failure(
				code,
				`${quoted} already exists, and a write without revision= only creates notes, so nothing was written.${kept}`,
				redo,
				{ path, ...current, ...keptFields },
			);
		case "read-expired":
			return failure(code, `${capitalized(readExpiredSentence(quoted, "written"))}${kept}`, redo, {
				path,
				...current,
				...keptFields,
			});
		case "content-loss":
			return failure(
				code,
				`${capitalized(contentLossSentence(quoted, refusal.currentLength, refusal.newLength))}${kept}`,
				redo,
				{ path, ...current, ...keptFields },
			);
		case "empty-body":
			return failure(
				code,
				`${capitalized(emptyBodySentence(quoted, "text", refusal.currentLength))} An empty ` +
					`text is often a file or variable that was not filled in.`,
				`Check your text. To empty the note on purpose, run the same command with the flag: empty`,
				{ path, ...current },
			);
		case "note-in-use":
			return failure(code, `${noteInUseSentence(quoted, done)}${kept}`, `Retry once the person has finished: ${redo}`, {
				path,
				...current,
				...keptFields,
			});
		case "backup-read-only":
			return failure(
				code,
				backupReadOnlySentence(quoted, done),
				"Write to the note it belongs to instead; the person keeps or deletes backups.",
				{ path },
			);
		case "not-found":
			return failure(
				code,
				notFoundSentence(quoted, done),
				report.next.kind === "nothing-to-do"
					? "Nothing to do."
					: `Create it with ${commandLine("write", { path, file: "/absolute/path/to/text.md" })}.`,
				{ path },
			);
		case "malformed-condition":
			return failure(
				code,
				"revision= is not a valid revision; nothing was written.",
				"Pass the revision exactly as revision-guard:read returned it.",
				{ argument: "revision", path },
			);
		case "scope-forbidden":
			return failure(code, `${scopeRuleSentence(refusal)} Nothing was ${done}.`, scopeNextStep(refusal), {
				path,
				...scopeFacts(refusal),
			});
	}
}

function staleAnswer(
	action: WriteAction,
	path: string,
	outcome: Refused,
	kept: string,
	keptFields: Record<string, unknown>,
): CliError {
	const { changes, mergePreview, report } = outcome;
	const { facts, next } = report;
	const done = action === "delete" ? "deleted" : "written";
	if (next.kind === "create-again" || next.kind === "nothing-to-do") {
		return failure(
			report.code,
			`${goneSentence(`"${path}"`, done)}${kept}`,
			next.kind === "nothing-to-do"
				? "Nothing to do: the note is gone."
				: `To create it again, run ${commandLine("write", { path, file: "/absolute/path/to/text.md" })} ` +
						`(without revision=).`,
			{ path, sentRevision: facts.sentRevision, currentRevision: null, ...keptFields },
		);
	}
	const merge =
		mergePreview !== null
			? "Your changes and the newer ones overlap, so they could not be merged automatically " +
				"(mergePreview shows the attempt with conflict markers). "
			: "";
	const command = `revision-guard:${action === "resolve" ? "write" : action}`;
	const then =
		next.kind === "retry-with-revision"
			? `\`changes\` is every change from the revision you sent to the note now: apply your ` +
				`change on top of the current content${action === "delete" ? " (or check it is still what you mean to delete)" : ""}, then run ${command} ` +
				`again with revision=${next.revision}.`
			: `${changes ? "`changes` is the start of the diff from the revision you sent, cut at the answer size limit (changesNext gives the rest); it is not all of the note, so it carries no revision. " : ""}Read it again (${commandLine("read", { path })}), ` +
				`re-apply your change, then run ${command} again with the revision it returns.`;
	const pages = report.changesNext
		? {
				changesTruncated: true,
				changesNext: commandLine("changes", {
					path,
					since: report.changesNext.since,
					to: report.changesNext.to,
					offset: String(report.changesNext.offset),
				}),
			}
		: {};
	return failure(report.code, `${merge}${staleSentence(`"${path}"`, done)}${kept}`, then, {
		path,
		...facts,
		...keptFields,
		...pages,
	});
}
