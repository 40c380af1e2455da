/**
 * Renders a refusal report (service/refusals/refusal-report.ts) as a tool error that tells the agent what happened, where its content is, and what to call
 * next, with resource links to the .bak, the conflict and the note (readable through resources/read). When the
 * session's client can ask the person, a stale write is put to the person first (elicitation/).
 */
import type { CallToolResult } from "../protocol/types";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { answerWithPersonOutcome } from "../elicitation/answers";
import { refusalLinks } from "../resources/links";
import { toolError, type ToolContext } from "./context";
import {
	backupReadOnlySentence,
	contentLossSentence,
	emptyBodySentence,
	existsSentence,
	goneSentence,
	keptSentence,
	noteInUseSentence,
	notFoundSentence,
	readExpiredSentence,
	staleSentence,
} from "../../core/refusal-wording";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import { currentFields } from "../../service/refusals/stale-facts";

type Refused = Extract<WriteOutcome, { kind: "refused" }>;
type RefusingTool = "write_note" | "append_note" | "delete_note" | "edit_note" | "patch_note";

export async function refusalResult(
	path: string,
	outcome: Refused,
	tool: RefusingTool,
	context?: ToolContext,
): Promise<CallToolResult> {
	// No client id: no session, so no remembered read could have stood in for the missing revision.
	const sessionless = context !== undefined && context.actor().client === undefined;
	const prose = refusalProse(path, outcome, tool, sessionless);
	const plain: CallToolResult = { ...prose, content: [...prose.content, ...refusalLinks(path, outcome)] };
	// A refused delete kept nothing to choose between.
	if (!context?.askPerson || tool === "delete_note") return plain;
	return answerWithPersonOutcome(plain, await context.askPerson(path, outcome), path, outcome);
}

function refusalProse(path: string, outcome: Refused, tool: RefusingTool, sessionless: boolean): CallToolResult {
	const { currentRevision, changes, mergePreview, report } = outcome;
	const { refusal, kept: record, next } = report;
	const quoted = JSON.stringify(path);
	const done = tool === "delete_note" ? "deleted" : "written";
	// An agent that sent no revision was held to its last read in this session: say so, or the refusal makes no sense.
	const heldTo = report.implicit
		? "You passed no revision, so your last read of this note in this session was used as your revision. "
		: "";
	const kept = keptSentence(
		record,
		JSON.stringify,
		record ? `conflict ${record.conflictId}; follow it with conflict_status` : "",
	);
	// A token only with the content it names: the report hands a revision to retry with only when this answer carries
	// every change since what the agent had seen; otherwise the agent takes the revision read_note returns.
	const usable = next.kind === "retry-with-revision" ? next.revision : null;
	const withRevision = usable === null ? "the revision it returns" : `revision=${JSON.stringify(usable)}`;
	const reread = `call read_note {"path":${quoted}}, re-apply your change to the content it returns, then call ${tool} again with ${withRevision}`;
	const facts = {
		// The refusal's code, the same as REST's problem type and the CLI's error (core/refusal-codes.ts).
		error: report.code,
		path,
		...(refusal.reason === "stale" && report.facts.sentRevision !== null
			? { sentRevision: report.facts.sentRevision }
			: {}),
		...currentFields(outcome),
		...(refusal.reason === "token-required" && refusal.sent ? { sentToken: refusal.sent } : {}),
		...(record ? { conflictId: record.conflictId, backupPath: record.backupPath } : {}),
		...(record?.backupError ? { backupError: record.backupError } : {}),
		...(record?.recordError ? { recordError: record.recordError } : {}),
		// The diff itself is in the prose only: sent once, so a big refusal does not fill the agent's context twice.
		...(changes?.truncated ? { changesTruncated: true, changesNextOffset: changes.nextOffset } : {}),
		...(report.facts.mergePreview !== undefined
			? {
					mergePreview: report.facts.mergePreview,
					...(report.facts.mergePreviewTruncated ? { mergePreviewTruncated: true } : {}),
					...(report.facts.mergeRules ? { mergeRules: report.facts.mergeRules } : {}),
				}
			: {}),
		...(report.implicit ? { implicitRevision: true } : {}),
	};
	switch (refusal.reason) {
		case "token-required": {
			const why =
				refusal.sent === "change-tag"
					? `the revision you passed is a change tag (from list_notes, a conflict record or a ` +
						`change notice): it proves nothing about what you read, so nothing was ${done}.`
					: refusal.sent === "part-token"
						? `the revision you passed came with part of ${quoted} (a patch's or append's answer, ` +
							`or a section): it can patch that part, but not replace or delete the whole note, ` +
							`so nothing was ${done}.`
						: refusal.lastReadPart
							? `you passed no revision, and this session's last read of ${quoted} showed only part ` +
								`of it, so nothing was ${done}.`
							: tool === "delete_note"
								? `deleting ${quoted} needs the revision you read. Nothing was deleted.`
								: sessionless
									? `${quoted} already exists and you passed no revision; a client without a session ` +
										`(every MCP 2026-07-28 client is one) has no remembered read to stand in for it, so ` +
										`nothing was written.`
									: `${quoted} already exists and you passed no revision (and this session, if any, has ` +
										`not read it), so nothing was written.`;
			const then =
				tool === "delete_note"
					? `Call read_note {"path":${quoted}} first, then delete_note with its revision.`
					: `Read first: call read_note {"path":${quoted}}, re-apply your change to the content ` +
						`it returns, then call ${tool} with the revision it returned.${tool === "write_note" ? " (To change only part of it, edit_note needs no revision.)" : ""}`;
			return toolError(`Refused: ${why} ${then}`, facts);
		}
		case "stale": {
			if (currentRevision === null) {
				const recreate = next.kind === "create-again" ? " To create it again, call write_note without a revision." : "";
				return toolError(`${heldTo}Refused: ${goneSentence(quoted, done)}${kept}${recreate}`, facts);
			}
			const merge =
				mergePreview !== null
					? "Your changes and the newer ones overlap, so they could not be merged automatically " +
						"(mergePreview below shows the attempt with conflict markers). "
					: "";
			const pages = report.changesNext;
			const more = pages
				? ` (cut at the answer size limit: call note_changes {"path":${quoted},"since":${JSON.stringify(pages.since)},"to":${JSON.stringify(pages.to)},"offset":${pages.offset}} for the rest)`
				: "";
			const diff = changes
				? `\n\nWhat changed since your revision (unified diff from the revision you had to the note now${more}):\n${changes.text}`
				: "";
			const then =
				tool === "delete_note"
					? `call read_note {"path":${quoted}}, check it is still what you mean to delete, then ` +
						`call delete_note with ${withRevision}`
					: reread;
			return toolError(
				`${heldTo}${merge}Refused: ${staleSentence(quoted, done)}${kept} Next: ${then}.${tool === "write_note" && mergePreview === null ? ' (Or pass merge: "auto" with the revision you read, to merge when the changes do not overlap.)' : ""}${diff}`,
				facts,
			);
		}
		case "read-expired":
			return toolError(`${heldTo}Refused: ${readExpiredSentence(quoted, "written")}${kept} Next: ${reread}.`, facts);
		case "exists":
			return toolError(`Refused: ${existsSentence(quoted)}${kept} Next: ${reread}.`, facts);
		case "empty-body":
			return toolError(
				`Refused: ${emptyBodySentence(quoted, "content", refusal.currentLength)} If you mean ` +
					`to empty the note, call ${tool} again with allow_empty: true.`,
				facts,
			);
		case "note-in-use":
			return toolError(`Refused: ${noteInUseSentence(quoted, done)}${kept} Retry later: ${reread}.`, facts);
		case "backup-read-only":
			return toolError(
				`Refused: ${backupReadOnlySentence(quoted, done)} Write to the note it belongs to instead.`,
				facts,
			);
		case "content-loss":
			return toolError(
				`Refused: ${contentLossSentence(quoted, refusal.currentLength, refusal.newLength)}${kept} ` +
					`If you mean to replace the note, ${reread}.`,
				facts,
			);
		case "not-found":
			return toolError(notFoundSentence(quoted, done), facts);
		case "malformed-condition":
			return toolError(
				`Refused: the revision is not valid; nothing was written. Pass the revision exactly as read_note returned it.`,
				facts,
			);
		case "scope-forbidden":
			return toolError(`Refused: ${scopeRuleSentence(refusal)} Nothing was ${done}. ${scopeNextStep(refusal)}`, {
				...facts,
				...scopeFacts(refusal),
			});
	}
}
