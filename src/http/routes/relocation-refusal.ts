/**
 * Renders a refused MOVE or COPY's report (service/refusals/relocation-report.ts) as a problem: which note it is about
 * (the one moved, or the one at the destination), what happened, and the next step, in REST's verbs (GET, If-Match,
 * Destination-If-Match, Allow-Overwrite). A move or a copy carries no text of the client's, so nothing is kept and no
 * conflict is recorded; both notes' revisions are handed as change tags only (neither note's content was shown).
 */
import type { Refusal } from "../../core/guard";
import {
	chooseAnotherSentence,
	backupRelocationSentence,
	capitalized,
	destinationTakenSentence,
	destinationTrashedSentence,
	goneSentence,
	nothingLostSentence,
	noteInUseSentence,
	notFoundSentence,
	readExpiredSentence,
	staleSentence,
} from "../../core/refusal-wording";
import { changeTagOf } from "../../core/revision-tokens";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import type { RelocationRefused } from "../../service/moves/move-request";
import type { NextStep } from "../../service/refusals/refusal-report";
import type { RelocationReport } from "../../service/refusals/relocation-report";
import { problem, problemOf } from "../problems";
import type { ApiResponse } from "../response";
import type { RequestContext } from "../router";

export type Verb = "moved" | "copied";

export function relocationRefusal(
	context: RequestContext,
	from: string,
	outcome: RelocationRefused,
	verb: Verb,
): ApiResponse {
	const { report } = outcome;
	const { refusal, side, path } = report;
	const facts = { ...report.facts, path: from, ...(side === "destination" ? { destination: path } : {}) };
	// The problem type is the report's code, the one in `facts.error` and MCP's (core/refusal-codes.ts).
	const name = problemOf(report.code);
	const headers: Record<string, string> =
		outcome.currentRevision === null ? {} : { ETag: `W/"${changeTagOf(outcome.currentRevision)}"` };
	const quoted = `"${path}"`;
	const next = nextSentence(context.method, report);
	const trashed =
		report.trashedDestination === null ? "" : destinationTrashedSentence(`"${report.trashedDestination}"`);
	const held = report.implicit
		? `You sent no ${headerOf(report)}, so this key's last read of ${quoted} was used as its revision. `
		: "";
	switch (refusal.reason) {
		case "destination-exists":
			return problem(
				name,
				`${destinationTakenSentence(quoted, refusal.notANote === true, verb)} ${next}${trashed}`,
				facts,
			);
		case "token-required":
			return problem(name, `${tokenRequired(context.method, report, refusal, verb)} ${next}${trashed}`, facts, headers);
		case "stale":
			return problem(
				name,
				outcome.currentRevision === null
					? `${held}${goneSentence(quoted, verb)}${trashed}`
					: `${held}${staleSentence(quoted, verb)} ${nothingLostSentence(verb)} ${next}${trashed}`,
				facts,
				headers,
			);
		case "read-expired":
			return problem(
				name,
				`${held}${capitalized(readExpiredSentence(quoted, verb))} ${next}${trashed}`,
				facts,
				headers,
			);
		case "note-in-use":
			return problem(name, `${noteInUseSentence(quoted, verb)} ${next}${trashed}`, facts, headers);
		case "backup-read-only":
			return problem(name, `${backupRelocationSentence(quoted, side, verb)} ${next}`, facts);
		case "malformed-condition":
			return problem(
				name,
				`The ${headerOf(report)} header is not a valid entity-tag list, so nothing was ${verb}. ${next}`,
				facts,
			);
		case "not-found":
			return problem(name, notFoundSentence(quoted, verb), facts);
		case "scope-forbidden":
			return problem(name, `${scopeRuleSentence(refusal)} So nothing was ${verb}. ${next}`, {
				...facts,
				...scopeFacts(refusal),
			});
	}
}

/** The header that carries the revision of the note the refusal is about. */
function headerOf(report: RelocationReport): "If-Match" | "Destination-If-Match" {
	return report.side === "source" ? "If-Match" : "Destination-If-Match";
}

/** The report's next step in REST's verbs. */
function nextSentence(method: string, report: RelocationReport): string {
	const next: NextStep = report.next;
	switch (next.kind) {
		case "read-then-retry":
			return `GET "${report.path}" (the whole note), then send ${method} again with ${headerOf(report)} set to its ETag.`;
		case "confirm-replace":
			return (
				"To replace it, GET it, then send the same request with Allow-Overwrite: true and " +
				"Destination-If-Match set to its ETag; or choose another destination."
			);
		case "choose-another-path":
			return chooseAnotherSentence(report.side);
		case "retry-when-free":
			return "Retry once they have finished there.";
		case "resend-revision-as-received":
			return "Send the ETag exactly as received (quotes included, or bare).";
		case "ask-the-person":
			return report.refusal.reason === "scope-forbidden" ? scopeNextStep(report.refusal) : "";
		default:
			return "";
	}
}

/** Why the request needs a revision it did not prove (the next step follows it). */
function tokenRequired(
	method: string,
	report: RelocationReport,
	refusal: Extract<Refusal, { reason: "token-required" }>,
	verb: Verb,
): string {
	const { side, path } = report;
	const header = headerOf(report);
	const nothing = `nothing was ${verb}`;
	const what =
		side === "source"
			? `${method === "MOVE" ? "Moving" : "Copying"} "${path}" takes all of it`
			: `Replacing "${path}" at the destination removes all of it`;
	if (refusal.sent === "change-tag")
		return (
			`The ${header} you sent is a change tag (from a listing, a HEAD, a 428 or a history ` +
			`record): it proves nothing about what you read, so ${nothing}.`
		);
	if (refusal.sent === "part-token")
		return (
			`The ${header} you sent came with part of "${path}" (a document map, a section): ${what}, ` +
			`which you have not read, so ${nothing}.`
		);
	if (refusal.lastReadPart)
		return `You sent no ${header}, and this key's last read of "${path}" showed only part of it: ${what}, so ${nothing}.`;
	if (refusal.wildcard) return `${header}: * proves nothing about which version of "${path}" you read, so ${nothing}.`;
	return `${what}, so it needs the revision you read of it (${header}, or a read of it with this key); ${nothing}.`;
}
