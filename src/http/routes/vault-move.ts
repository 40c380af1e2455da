/**
 * MOVE and COPY on /vault/{path}, as the Local REST API 5.x has them: `Destination` names the new path (relative to
 * the vault, percent-encoded, a trailing slash keeping the note's name), `Allow-Overwrite: true` lets a note at the
 * destination be replaced. Guarded: a move needs the note's revision (If-Match, or this key's whole read of it), and
 * replacing a destination needs its own (Destination-If-Match, or this key's whole read of it). Answers 204 with
 * Content-Location naming the new path, as the Local REST API does.
 */
import { resolveDestination } from "../../core/destination";
import { parseEntityTagCondition } from "../../core/revision";
import { etagFor } from "../../core/revision-tokens";
import type { CopyOutcome, MoveOutcome } from "../../service/moves/move-request";
import { problem, refuse } from "../problems";
import { noContent, type ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { headersValue } from "./headers";
import { resolvePath } from "./note-path";
import { patchVersion } from "./patch-version";
import { relocationRefusal, type Verb } from "./relocation-refusal";
import { notFoundSentence } from "../../core/refusal-wording";
import { heldRevision } from "./write-answer";

export async function moveNote(context: RequestContext): Promise<ApiResponse> {
	const request = relocation(context, "moved");
	const outcome = await context.notes.move({ ...request, heldRevision: heldRevision(context, request.from) });
	return answer(context, request.from, outcome, "moved");
}

export async function copyNote(context: RequestContext): Promise<ApiResponse> {
	const request = relocation(context, "copied");
	return answer(context, request.from, await context.notes.copy(request), "copied");
}

/** What MOVE and COPY share: the note, where it goes, and the conditions on both (checked before anything is read). */
function relocation(context: RequestContext, verb: Verb) {
	// A folder is not moved or copied here (the Local REST API refuses it too): a note is never moved with it unseen.
	if (context.rest === "" || context.rest.endsWith("/")) {
		return refuse(
			"method-not-allowed",
			`${context.method} moves or copies one note, and "${context.rest}" names a folder, ` +
				`so nothing was ${verb}. Move the notes in it one by one.`,
			{},
			{ Allow: "GET, HEAD" },
		);
	}
	const from = resolvePath(context, "note");
	// Local REST API 5.x refuses a Markdown-Patch-Version it does not know on every /vault/ request; so do we.
	patchVersion(context);
	const destination = resolveDestination(headersValue(context, "destination"), from, context.notes.pathPolicy(), true);
	if (!destination.ok && destination.problem === "missing") {
		refuse(
			"destination-required",
			`The Destination header is required for MOVE and COPY: the note's new path, relative ` +
				`to the vault (percent-encoded; ending in / to keep the note's name). Nothing was ${verb}.`,
		);
	}
	if (!destination.ok)
		refuse("invalid-destination", `${destination.reason} Nothing was ${verb}.`, {
			path: from,
			reason: destination.problem,
		});
	const destinationIfMatch = headersValue(context, "destination-if-match");
	return {
		from,
		to: destination.path,
		ifMatch: parseEntityTagCondition(headersValue(context, "if-match")),
		overwrite: /^\s*true\s*$/i.test(headersValue(context, "allow-overwrite") ?? ""),
		destinationIfMatch: parseEntityTagCondition(destinationIfMatch),
		actor: actorOf(context),
		// As for If-Match: a condition of its own means the client's last read is not looked up.
		heldDestination:
			destinationIfMatch === undefined ? context.notes.holdRevision(actorOf(context), destination.path) : null,
	};
}

function answer(context: RequestContext, from: string, outcome: MoveOutcome | CopyOutcome, verb: Verb): ApiResponse {
	switch (outcome.kind) {
		case "moved":
		case "copied":
			return noContent({ "Content-Location": encodeURI(outcome.to), ETag: etagFor(outcome.revision, outcome.sight) });
		case "same-path":
			return noContent({ "Content-Location": encodeURI(outcome.path), ETag: etagFor(outcome.revision, "none") });
		case "missing":
			return problem(
				"note-not-found",
				`${notFoundSentence(`"${from}"`, verb)} List its folder with GET /vault/{folder}/.`,
				{ path: from },
			);
		case "refused":
			return relocationRefusal(context, from, outcome, verb);
	}
}
