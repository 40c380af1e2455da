/**
 * Turns a refused write into a tool error that tells the agent what happened, where its content is, and what to call
 * next, with resource links to the .bak, the conflict and the note (readable through resources/read). When the
 * session's client can ask the person, a stale write is put to the person first (elicitation/).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { answerWithPersonOutcome } from "../elicitation/answers";
import { refusalLinks } from "../resources/links";
import { fail, type ToolContext } from "./context";
import { refusalCode } from "../../core/refusal-codes";
import { tokenFor } from "../../core/revision-tokens";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import { currentFields, nextPageRevisions } from "../../service/refusals/stale-facts";

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
	const { refusal, conflict, currentRevision, currentSight, changes, backupError, mergePreview, implicit } = outcome;
	const quoted = JSON.stringify(path);
	// An agent that sent no revision was held to its last read in this session: say so, or the refusal makes no sense.
	const heldTo = implicit
		? "You passed no revision, so your last read of this note in this session was used as your revision. "
		: "";
	const kept = conflict?.backupPath
		? ` Your content was kept, byte for byte, in ${JSON.stringify(conflict.backupPath)} (conflict ${conflict.id}; follow it with conflict_status).`
		: backupError
			? ` Your content could NOT be kept as a .bak (${backupError}); it was not written anywhere, so keep your copy.`
			: "";
	// A token only with the content it names: the current revision is handed only with every change since what the
	// agent had seen (core/revision-tokens); otherwise a change tag, and the agent takes the revision read_note returns.
	const usable = currentRevision !== null && currentSight !== "none" ? tokenFor(currentRevision, currentSight) : null;
	const reread = `call read_note {"path":${quoted}}, re-apply your change to the content it returns, then call ${tool} again with ${usable === null ? "the revision it returns" : `revision=${JSON.stringify(usable)}`}`;
	const facts = {
		// The refusal's code, the same as REST's problem type and the CLI's error (core/refusal-codes.ts).
		error: refusalCode(refusal),
		path,
		...(refusal.reason === "stale" && refusal.sentRevision !== null
			? { sentRevision: tokenFor(refusal.sentRevision, outcome.sentSight) }
			: {}),
		...currentFields(outcome),
		...(refusal.reason === "token-required" && refusal.sent ? { sentToken: refusal.sent } : {}),
		...(conflict ? { conflictId: conflict.id, backupPath: conflict.backupPath } : {}),
		...(backupError ? { backupError } : {}),
		// The diff itself is in the prose only: sent once, so a big refusal does not fill the agent's context twice.
		...(changes?.truncated ? { changesTruncated: true, changesNextOffset: changes.nextOffset } : {}),
		...(mergePreview !== null
			? {
					mergePreview: mergePreview.text,
					...(mergePreview.truncated ? { mergePreviewTruncated: true } : {}),
					...(mergePreview.rules ? { mergeRules: mergePreview.rules } : {}),
				}
			: {}),
		...(implicit ? { implicitRevision: true } : {}),
	};
	switch (refusal.reason) {
		case "token-required": {
			const done = tool === "delete_note" ? "deleted" : "written";
			const why =
				refusal.sent === "change-tag"
					? `the revision you passed is a change tag (from list_notes, a conflict record or a change notice): it proves nothing about what you read, so nothing was ${done}.`
					: refusal.sent === "part-token"
						? `the revision you passed came with part of ${quoted} (a patch's or append's answer, or a section): it can patch that part, but not replace or delete the whole note, so nothing was ${done}.`
						: refusal.lastReadPart
							? `you passed no revision, and this session's last read of ${quoted} showed only part of it, so nothing was ${done}.`
							: tool === "delete_note"
								? `deleting ${quoted} needs the revision you read. Nothing was deleted.`
								: sessionless
									? `${quoted} already exists and you passed no revision; a client without a session (every MCP 2026-07-28 client is one) has no remembered read to stand in for it, so nothing was written.`
									: `${quoted} already exists and you passed no revision (and this session, if any, has not read it), so nothing was written.`;
			const next =
				tool === "delete_note"
					? `Call read_note {"path":${quoted}} first, then delete_note with its revision.`
					: `Read first: call read_note {"path":${quoted}}, re-apply your change to the content it returns, then call ${tool} with the revision it returned.${tool === "write_note" ? " (To change only part of it, edit_note needs no revision.)" : ""}`;
			return fail(`Refused: ${why} ${next}`, facts);
		}
		case "stale": {
			if (currentRevision === null) {
				return fail(
					`${heldTo}Refused: ${quoted} no longer exists (it was deleted or moved since you read it), so nothing was written.${kept} To create it again, call write_note without a revision.`,
					facts,
				);
			}
			const merge =
				mergePreview !== null
					? "Your changes and the newer ones overlap, so they could not be merged automatically (mergePreview below shows the attempt with conflict markers). "
					: "";
			const pages = nextPageRevisions(outcome);
			const more =
				changes?.truncated && pages
					? ` (cut at the answer size limit: call note_changes {"path":${quoted},"since":${JSON.stringify(pages.since)},"to":${JSON.stringify(pages.to)},"offset":${changes.nextOffset}} for the rest)`
					: "";
			const diff = changes
				? `\n\nWhat changed since your revision (unified diff from the revision you had to the note now${more}):\n${changes.text}`
				: "";
			const next =
				tool === "delete_note"
					? `call read_note {"path":${quoted}}, check it is still what you mean to delete, then call delete_note with ${usable === null ? "the revision it returns" : `revision=${JSON.stringify(usable)}`}`
					: reread;
			return fail(
				`${heldTo}${merge}Refused: ${quoted} changed since you read it, so nothing was ${tool === "delete_note" ? "deleted" : "written"}.${kept} Next: ${next}.${tool === "write_note" && mergePreview === null ? ' (Or pass merge: "auto" with the revision you read, to merge when the changes do not overlap.)' : ""}${diff}`,
				facts,
			);
		}
		case "read-expired":
			return fail(
				`${heldTo}Refused: you read ${quoted} longer ago than the read validity window allows, so nothing was written.${kept} Next: ${reread}.`,
				facts,
			);
		case "exists":
			return fail(`Refused: ${quoted} already exists, so nothing was written.${kept} Next: ${reread}.`, facts);
		case "empty-body":
			return fail(
				`Refused: the content is empty and would replace all ${refusal.currentLength} characters of ${quoted}; nothing was written. If you mean to empty the note, call ${tool} again with allow_empty: true.`,
				facts,
			);
		case "note-in-use":
			return fail(
				`Refused: ${quoted} is being edited in Obsidian where its text cannot be checked, so nothing was written, rather than risk the person's typing.${kept} Retry later: ${reread}.`,
				facts,
			);
		case "backup-read-only":
			return fail(
				`Refused: ${quoted} is a backup of a refused write; agents may read it but not change or delete it. Nothing was written. Write to the note it belongs to instead.`,
				facts,
			);
		case "content-loss":
			return fail(
				`Refused: this write would shrink ${quoted} from ${refusal.currentLength} to ${refusal.newLength} characters without a revision, which usually means a stale copy; nothing was written.${kept} If you mean to replace the note, ${reread}.`,
				facts,
			);
		case "not-found":
			return fail(`There is no note at ${quoted}; nothing was deleted.`, facts);
		case "malformed-condition":
			return fail(
				`Refused: the revision is not valid; nothing was written. Pass the revision exactly as read_note returned it.`,
				facts,
			);
		case "scope-forbidden":
			return fail(
				`Refused: ${scopeRuleSentence(refusal)} Nothing was ${tool === "delete_note" ? "deleted" : "written"}. ${scopeNextStep(refusal)}`,
				{ ...facts, ...scopeFacts(refusal) },
			);
	}
}
