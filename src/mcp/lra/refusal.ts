/**
 * A refusal report (service/refusals/refusal-report.ts) of a Local REST API tool, rendered in that tool set's words: what happened, where the content was kept, and
 * the calls to make next (vault_read, then the same tool; vault_write has no revision argument, so it is held to the
 * session's last vault_read). The facts, resource links and the question to the person are those of our own tools.
 */
import type { CallToolResult } from "../protocol/types";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import {
	backupReadOnlySentence,
	emptyBodySentence,
	existsSentence,
	goneSentence,
	keptSentence,
	noteInUseSentence,
	notFoundSentence,
	staleSentence,
} from "../../core/refusal-wording";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import { currentFields } from "../../service/refusals/stale-facts";
import { answerWithPersonOutcome } from "../elicitation/answers";
import { refusalLinks } from "../resources/links";
import type { ToolContext } from "../tools/context";
import { relocationRefusalResult } from "../tools/relocation";
import type { RelocationRefused } from "../../service/moves/move-request";
import { lraError } from "./answers";
import type { LraAnswer } from "./service-operations";

type Refused = Extract<WriteOutcome, { kind: "refused" }>;
export type LraWritingTool = "vault_write" | "vault_append" | "vault_patch" | "vault_delete";

export async function lraRefusal(
	path: string,
	outcome: Refused,
	tool: LraWritingTool,
	context: ToolContext,
): Promise<CallToolResult> {
	const { changes, report } = outcome;
	const { refusal, kept: record, implicit } = report;
	const quoted = JSON.stringify(path);
	const done = tool === "vault_delete" ? "deleted" : "written";
	const kept = keptSentence(record, JSON.stringify);
	const again =
		tool === "vault_patch"
			? "call vault_patch again (its ifMatch is optional: your last vault_read is used)"
			: `call ${tool} again (it is held to your last vault_read of the note)`;
	const reread = `Call vault_read {"path":${quoted}}, re-apply your change to the content it returns, then ${again}.`;
	const facts = {
		error: report.code,
		path,
		...currentFields(outcome),
		...(record ? { conflictId: record.conflictId, backupPath: record.backupPath } : {}),
		...(record?.backupError ? { backupError: record.backupError } : {}),
		...(record?.recordError ? { recordError: record.recordError } : {}),
		...(implicit ? { implicitRevision: true } : {}),
	};
	if (refusal.reason === "scope-forbidden")
		return lraError(`Refused: ${scopeRuleSentence(refusal)} Nothing was ${done}. ${scopeNextStep(refusal)}`, {
			...facts,
			...scopeFacts(refusal),
		});
	let text: string;
	switch (refusal.reason) {
		case "token-required":
			text = refusal.lastReadPart
				? `Refused: this session read only part of ${quoted} (a document map or a section), ` +
					`which may stand in for vault_patch but not for replacing or deleting the whole note, ` +
					`so nothing was ${done}. ${reread}`
				: tool === "vault_delete"
					? `Refused: this session has not read ${quoted}, so nothing was deleted (a delete never ` +
						`removes text you have not seen). Call vault_read {"path":${quoted}}, check it is ` +
						`what you mean to delete, then call vault_delete again.`
					: `Refused: ${quoted} already exists and this session has not read it, so nothing was ${done} ` +
						`(a write never replaces text you have not seen). ${reread}`;
			break;
		case "stale": {
			const held = implicit ? "It was checked against your last vault_read in this session. " : "";
			const diff = changes
				? `\n\nWhat changed since your read (unified diff${changes.truncated ? ", cut at the answer size limit" : ""}):\n${changes.text}`
				: "";
			text =
				outcome.currentRevision === null
					? `Refused: ${goneSentence(quoted, done)}${kept}${report.next.kind === "create-again" ? " To create it again, call vault_write." : ""}`
					: `Refused: ${staleSentence(quoted, done)} ${held}${reread}${kept}${diff}`;
			break;
		}
		case "exists":
			text = `Refused: ${existsSentence(quoted)}${kept} ${reread}`;
			break;
		case "empty-body":
			text =
				`Refused: ${emptyBodySentence(quoted, "content", refusal.currentLength)} To empty ` +
				`a note on purpose, call write_note with allow_empty: true.`;
			break;
		case "backup-read-only":
			text = `Refused: ${backupReadOnlySentence(quoted, done)} Write to the note it belongs to.`;
			break;
		case "note-in-use":
			text = `Refused: ${noteInUseSentence(quoted, done)}${kept} Retry in a moment: ${reread}`;
			break;
		case "not-found":
			text = notFoundSentence(quoted, done);
			break;
		default:
			text = `Refused (${refusal.reason}): nothing was ${done} to ${quoted}.${kept} ${reread}`;
	}
	const plain = lraError(text, facts);
	const linked: CallToolResult = { ...plain, content: [...plain.content, ...refusalLinks(path, outcome)] };
	if (!context.askPerson || tool === "vault_delete") return linked;
	return answerWithPersonOutcome(linked, await context.askPerson(path, outcome), path, outcome);
}

/**
 * A refused vault_move or vault_copy: the report rendered as move_note and copy_note render it (its next step names
 * those tools, which take the revisions vault_move and vault_copy have no argument for).
 */
export function lraRelocationRefusal(
	outcome: RelocationRefused,
	from: string,
	tool: "move_note" | "copy_note",
): LraAnswer {
	const [first, second] = relocationRefusalResult(outcome, from, tool).content;
	const facts = second?.type === "text" ? (JSON.parse(second.text) as Record<string, unknown>) : undefined;
	return {
		ok: false,
		message: first?.type === "text" ? first.text : "Refused; nothing was moved or copied.",
		...(facts ? { facts } : {}),
	};
}
