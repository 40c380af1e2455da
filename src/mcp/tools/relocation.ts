/**
 * What move_note and copy_note share: where the note goes (resolved as REST's Destination is), and their refusals: the
 * report the service built (service/refusals/relocation-report.ts), in these tools' words and calls.
 */
import type { CallToolResult } from "../protocol/types";
import { resolveDestination } from "../../core/destination";
import type { Refusal } from "../../core/guard";
import {
	chooseAnotherSentence,
	backupRelocationSentence,
	destinationTakenSentence,
	destinationTrashedSentence,
	goneSentence,
	nothingLostSentence,
	noteInUseSentence,
	notFoundSentence,
	readExpiredSentence,
	staleSentence,
} from "../../core/refusal-wording";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import type { RelocationRefused } from "../../service/moves/move-request";
import type { RelocationReport } from "../../service/refusals/relocation-report";
import { toolError, ToolFailure, type ToolContext } from "./context";

export type RelocatingTool = "move_note" | "copy_note";

/** The destination path, as REST resolves Destination (without percent-decoding): a trailing slash keeps the note's name. */
export function checkDestination(context: ToolContext, destination: string, source: string): string {
	const resolved = resolveDestination(destination, source, context.notes.pathPolicy(), false);
	if (resolved.ok) return resolved.path;
	throw new ToolFailure(
		toolError(invalidDestinationSentence(destination, resolved.reason), {
			error: "invalid-destination",
			reason: resolved.problem,
		}),
	);
}

/** A destination that is not a path a note can have, as move_note, copy_note, vault_move and vault_copy say it. */
export function invalidDestinationSentence(destination: string, reason: string): string {
	return `Invalid destination ${JSON.stringify(destination)}: ${reason} Nothing was moved or copied.`;
}

/** A refused move or copy: what happened, which note it is about, and the call to make next. Nothing was kept: nothing was lost. */
export function relocationRefusalResult(
	outcome: RelocationRefused,
	from: string,
	tool: RelocatingTool,
): CallToolResult {
	const { report } = outcome;
	const { refusal, side, path } = report;
	const quoted = JSON.stringify(path);
	const done = tool === "move_note" ? "moved" : "copied";
	const facts = { ...report.facts, from };
	const next = nextSentence(report, tool);
	const held = report.implicit
		? `You passed no ${argumentOf(report)}, so this session's last read of ${quoted} was used. `
		: "";
	const trashed =
		report.trashedDestination === null ? "" : destinationTrashedSentence(JSON.stringify(report.trashedDestination));
	switch (refusal.reason) {
		case "destination-exists":
			return toolError(
				`Refused: ${destinationTakenSentence(quoted, refusal.notANote === true, done)} ${next}${trashed}`,
				facts,
			);
		case "token-required":
			return toolError(`Refused: ${tokenRequired(report, refusal)}; nothing was ${done}. ${next}${trashed}`, facts);
		case "stale":
			return toolError(
				outcome.currentRevision === null
					? `${held}Refused: ${goneSentence(quoted, done)}${trashed}`
					: `${held}Refused: ${staleSentence(quoted, done)} ${nothingLostSentence(done)} ${next}${trashed}`,
				facts,
			);
		case "read-expired":
			return toolError(`${held}Refused: ${readExpiredSentence(quoted, done)} ${next}${trashed}`, facts);
		case "note-in-use":
			return toolError(`Refused: ${noteInUseSentence(quoted, done)} ${next}${trashed}`, facts);
		case "backup-read-only":
			return toolError(`Refused: ${backupRelocationSentence(quoted, side, done)} ${next}`, facts);
		case "malformed-condition":
			return toolError(`Refused: the ${argumentOf(report)} is not valid; nothing was ${done}. ${next}`, facts);
		case "not-found":
			return toolError(notFoundSentence(quoted, done), facts);
		case "scope-forbidden":
			return toolError(`Refused: ${scopeRuleSentence(refusal)} So nothing was ${done}. ${next}`, {
				...facts,
				...scopeFacts(refusal),
			});
	}
}

/** The argument that carries the revision of the note the refusal is about. */
function argumentOf(report: RelocationReport): "revision" | "destination_revision" {
	return report.side === "source" ? "revision" : "destination_revision";
}

/** The report's next step as the calls to make. */
function nextSentence(report: RelocationReport, tool: RelocatingTool): string {
	const quoted = JSON.stringify(report.path);
	switch (report.next.kind) {
		case "read-then-retry":
			return (
				`Next: call read_note {"path":${quoted}}, then call ${tool} again with ${argumentOf(report)} ` +
				`set to the revision it returns.`
			);
		case "confirm-replace":
			return (
				`To replace it, call read_note {"path":${quoted}}, then ${tool} again with overwrite: ` +
				`true and destination_revision set to the revision it returns; or choose another destination.`
			);
		case "choose-another-path":
			return chooseAnotherSentence(report.side);
		case "retry-when-free":
			return "Retry later.";
		case "resend-revision-as-received":
			return "Pass it exactly as read_note returned it.";
		case "ask-the-person":
			return report.refusal.reason === "scope-forbidden" ? scopeNextStep(report.refusal) : "";
		default:
			return "";
	}
}

/** Why the call needs a revision it did not prove (the next step follows it). */
function tokenRequired(report: RelocationReport, refusal: Extract<Refusal, { reason: "token-required" }>): string {
	const quoted = JSON.stringify(report.path);
	const argument = argumentOf(report);
	if (refusal.sent === "change-tag")
		return (
			`the ${argument} you passed is a change tag (from list_notes or a record): it proves ` +
			`nothing about what you read`
		);
	if (refusal.sent === "part-token") return `the ${argument} you passed came with part of ${quoted} only`;
	if (refusal.lastReadPart) return `this session's last read of ${quoted} showed only part of it`;
	return report.side === "source"
		? `moving ${quoted} takes all of it, so it needs the revision you read of it`
		: `replacing ${quoted} removes all of it, so it needs the revision you read of it`;
}
