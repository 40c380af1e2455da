/** What move_note and copy_note share: where the note goes (resolved as REST's Destination is), and their refusals in words. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { resolveDestination } from "../../core/destination";
import type { RelocationRefused } from "../../service/moves/move-request";
import { relocationFacts, trashedSentence } from "../../service/moves/relocation-facts";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import { toolError, ToolFailure, type ToolContext } from "./context";

export type RelocatingTool = "move_note" | "copy_note";

/** The destination path, as REST resolves Destination (without percent-decoding): a trailing slash keeps the note's name. */
export function checkDestination(context: ToolContext, destination: string, source: string): string {
	const resolved = resolveDestination(destination, source, context.notes.pathPolicy(), false);
	if (resolved.ok) return resolved.path;
	throw new ToolFailure(
		toolError(`Invalid destination ${JSON.stringify(destination)}: ${resolved.reason} Nothing was moved or copied.`, {
			error: "invalid-destination",
			reason: resolved.problem,
		}),
	);
}

/** A refused move or copy: what happened, which note it is about, and the call to make next. Nothing was kept: nothing was lost. */
export function relocationRefusalResult(
	outcome: RelocationRefused,
	from: string,
	tool: RelocatingTool,
): CallToolResult {
	const { refusal, side, path } = outcome;
	const quoted = JSON.stringify(path);
	const nothing = `nothing was ${tool === "move_note" ? "moved" : "copied"}`;
	const argument = side === "source" ? "revision" : "destination_revision";
	const facts = { ...relocationFacts(outcome), from };
	const read = `call read_note {"path":${quoted}}, then call ${tool} again with ${argument} set to the revision it returns`;
	const held = outcome.implicit ? `You passed no ${argument}, so this session's last read of ${quoted} was used. ` : "";
	const trashed = trashedSentence(outcome, path);
	switch (refusal.reason) {
		case "destination-exists":
			return toolError(
				`Refused: ${quoted} already exists${refusal.notANote ? " and is not a note" : ""}, so ${nothing}: what is at the destination is never replaced unless you ask.${refusal.notANote ? " Choose another destination." : ` To replace it, call read_note {"path":${quoted}}, then ${tool} again with overwrite: true and destination_revision set to the revision it returns; or choose another destination.`}${trashed}`,
				facts,
			);
		case "token-required": {
			const why =
				refusal.sent === "change-tag"
					? `the ${argument} you passed is a change tag (from list_notes or a record): it proves nothing about what you read`
					: refusal.sent === "part-token"
						? `the ${argument} you passed came with part of ${quoted} only`
						: refusal.lastReadPart
							? `this session's last read of ${quoted} showed only part of it`
							: side === "source"
								? `moving ${quoted} takes all of it, so it needs the revision you read of it`
								: `replacing ${quoted} removes all of it, so it needs the revision you read of it`;
			return toolError(`Refused: ${why}; ${nothing}. Next: ${read}.${trashed}`, facts);
		}
		case "stale":
			return toolError(
				outcome.currentRevision === null
					? `${held}Refused: ${quoted} no longer exists (it was deleted or moved since you read it), so ${nothing}.${trashed}`
					: `${held}Refused: ${quoted} changed since you read it, so ${nothing}. Nothing of yours was lost: this call carries no text. Next: ${read}.${trashed}`,
				facts,
			);
		case "read-expired":
			return toolError(
				`${held}Refused: you read ${quoted} longer ago than the read validity window allows, so ${nothing}. Next: ${read}.${trashed}`,
				facts,
			);
		case "note-in-use":
			return toolError(
				`Refused: ${quoted} is being edited in Obsidian where its text cannot be checked, so ${nothing}. Retry later.${trashed}`,
				facts,
			);
		case "backup-read-only":
			return toolError(
				`Refused: ${quoted} is a backup of a refused write${side === "destination" ? " (or would look like one)" : ""}; agents may read backups but not move, replace or create them. ${capitalized(nothing)}.`,
				facts,
			);
		case "malformed-condition":
			return toolError(
				`Refused: the ${argument} is not valid; ${nothing}. Pass it exactly as read_note returned it.`,
				facts,
			);
		case "not-found":
			return toolError(`There is no note at ${quoted}; ${nothing}.`, facts);
		case "scope-forbidden":
			return toolError(`Refused: ${scopeRuleSentence(refusal)} So ${nothing}. ${scopeNextStep(refusal)}`, {
				...facts,
				...scopeFacts(refusal),
			});
		case "exists":
		case "content-loss":
		case "empty-body":
			return toolError(`Refused: ${quoted} already exists, so ${nothing}.`, facts);
	}
}

function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
