/**
 * A refused MOVE or COPY as a problem: which note it is about (the one moved, or the one at the destination), what
 * happened, and the next step. A move or a copy carries no text of the client's, so nothing is kept and no conflict is
 * recorded; both notes' revisions are handed as change tags only (neither note's content was shown).
 */
import { changeTagOf } from "../../core/revision-tokens";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import type { RelocationRefused } from "../../service/moves/move-request";
import { relocationFacts, trashedSentence } from "../../service/moves/relocation-facts";
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
	const { refusal, side, path } = outcome;
	const facts = { ...relocationFacts(outcome), path: from, ...(side === "destination" ? { destination: path } : {}) };
	// The problem type is the refusal's code, the one in `facts.error` and MCP's (core/refusal-codes.ts).
	const name = problemOf(facts.error);
	const headers: Record<string, string> =
		outcome.currentRevision === null ? {} : { ETag: `W/"${changeTagOf(outcome.currentRevision)}"` };
	const nothing = `nothing was ${verb}`;
	const trashed = trashedSentence(outcome, path);
	const header = side === "source" ? "If-Match" : "Destination-If-Match";
	const held = outcome.implicit
		? `You sent no ${header}, so this key's last read of "${path}" was used as its revision. `
		: "";
	switch (refusal.reason) {
		case "destination-exists":
			return problem(
				name,
				`"${path}" already exists${refusal.notANote ? " and is not a note (a folder, say)" : ""}, so ${nothing}: what is at the destination is never replaced unless you ask.${refusal.notANote ? " Choose another destination." : ` To replace it, GET it, then send the same request with Allow-Overwrite: true and Destination-If-Match set to its ETag; or choose another destination.`}${trashed}`,
				facts,
			);
		case "token-required":
			return problem(name, tokenRequired(context.method, outcome, nothing), facts, headers);
		case "stale":
			return problem(
				name,
				outcome.currentRevision === null
					? `${held}"${path}" no longer exists (it was deleted or moved since you read it), so ${nothing}.${trashed}`
					: `${held}"${path}" changed since you read it, so ${nothing}. ${verb === "moved" ? "A move" : "A copy"} carries no text of yours, so nothing was kept. GET "${path}" and send ${context.method} again with ${header} set to its ETag.${trashed}`,
				facts,
				headers,
			);
		case "read-expired":
			return problem(
				name,
				`${held}You read "${path}" longer ago than the read validity window allows, so ${nothing}. GET it again and retry with ${header} set to its ETag.${trashed}`,
				facts,
				headers,
			);
		case "note-in-use":
			return problem(
				name,
				`"${path}" is being edited in Obsidian where its text cannot be checked (a canvas card or a popover), so ${nothing}, rather than risk the person's typing. Retry once they have finished there.${trashed}`,
				facts,
				headers,
			);
		case "backup-read-only":
			return problem(
				name,
				`"${path}" is a backup of a refused write${side === "destination" ? " (or would look like one)" : ""}: agents may read backups but not move, replace or create them, so ${nothing}. Choose another note or destination.`,
				facts,
			);
		case "malformed-condition":
			return problem(
				name,
				`The ${header} header is not a valid entity-tag list, so ${nothing}. Send the ETag exactly as received (quotes included, or bare).`,
				facts,
			);
		case "not-found":
			return problem(name, `There is no note at "${path}", so ${nothing}.`, facts);
		case "scope-forbidden":
			return problem(name, `${scopeRuleSentence(refusal)} So ${nothing}. ${scopeNextStep(refusal)}`, {
				...facts,
				...scopeFacts(refusal),
			});
		case "exists":
		case "content-loss":
		case "empty-body":
			return problem(
				name,
				`"${path}" already exists, so ${nothing}. Choose another destination, or replace it with Allow-Overwrite: true and Destination-If-Match.`,
				facts,
			);
	}
}

/** Why the request needs a revision it did not prove, and how to get one. */
function tokenRequired(method: string, outcome: RelocationRefused, nothing: string): string {
	const { refusal, side, path } = outcome;
	if (refusal.reason !== "token-required") return "";
	const header = side === "source" ? "If-Match" : "Destination-If-Match";
	const next = `GET "${path}" (the whole note), then send ${method} again with ${header} set to its ETag.`;
	const what =
		side === "source"
			? `${method === "MOVE" ? "Moving" : "Copying"} "${path}" takes all of it`
			: `Replacing "${path}" at the destination removes all of it`;
	if (refusal.sent === "change-tag")
		return `The ${header} you sent is a change tag (from a listing, a HEAD, a 428 or a history record): it proves nothing about what you read, so ${nothing}. ${next}`;
	if (refusal.sent === "part-token")
		return `The ${header} you sent came with part of "${path}" (a document map, a section): ${what}, which you have not read, so ${nothing}. ${next}`;
	if (refusal.lastReadPart)
		return `You sent no ${header}, and this key's last read of "${path}" showed only part of it: ${what}, so ${nothing}. ${next}`;
	if (refusal.wildcard)
		return `${header}: * proves nothing about which version of "${path}" you read, so ${nothing}. ${next}`;
	return `${what}, so it needs the revision you read of it (${header}, or a read of it with this key); ${nothing}. ${next}`;
}
