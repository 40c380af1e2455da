/**
 * Implicit tokens: a client that sends no If-Match (tools written for the Local REST API) is held to the revision
 * it last read of the note, as if it had sent that revision. Forgetting a read is always safe: it leads to 428.
 * Also the read validity window, which bounds sent tokens as it bounds held ones.
 */
import type { HeldRead, ReadLedger } from "../stores/read-ledger";
import type { EntityTagCondition } from "../../core/revision";
import { proofIn, type Sight } from "../../core/revision-tokens";
import type { WriteOperation } from "../../core/guard";
import type { RevisionHistory } from "../stores/revision-history";
import type { RevisionGuardSettings } from "../../settings";
import { clientOf } from "../notes/actor";
import type { WriteRequest } from "./guarded-writer";

export interface ImplicitTokenDeps {
	reads: ReadLedger;
	settings: () => RevisionGuardSettings;
	now: () => number;
}

/** The read a tokenless write from `client` to `path` would be held to now, or null (428 then). */
export function heldRevision(deps: ImplicitTokenDeps, client: string | undefined, path: string): HeldRead | null {
	const config = deps.settings();
	if (client === undefined || !config.protectTokenlessClients) return null;
	const read = deps.reads.lastRead(client, path);
	if (!read) return null;
	const windowMs = config.readValidityMinutes * 60_000;
	return windowMs > 0 && deps.now() - read.time > windowMs ? null : { revision: read.revision, sight: read.sight };
}

/**
 * The request as the guard checks it: a held read stands in for a missing If-Match on replaces, deletes and patches
 * (appends and exact edits overwrite nothing they did not match, so they need none). A read of part of the note (a
 * document map, a section) stands in for a patch only: it never lets a client replace or delete what it did not see.
 */
export function withHeldRevision(
	request: WriteRequest,
	held: HeldRead | null,
): { checked: WriteRequest; implicit: boolean; lastReadPart: boolean } {
	const { operation } = request;
	const applies =
		clientOf(request.actor) !== undefined &&
		request.ifMatch.kind === "absent" &&
		request.ifNoneMatch.kind === "absent" &&
		operation.kind !== "append" &&
		operation.kind !== "edit";
	if (!applies || held === null) return { checked: request, implicit: false, lastReadPart: false };
	if (held.sight === "part" && operation.kind !== "patch")
		return { checked: request, implicit: false, lastReadPart: true };
	return {
		checked: { ...request, ifMatch: { kind: "tags", tags: [{ weak: false, opaque: held.revision }] } },
		implicit: true,
		lastReadPart: false,
	};
}

/**
 * How much of `revision` a client had shown it saw before its write: the token it sent, or else its last read of
 * the note when that was this very revision. "none" when neither names it.
 */
export function basisSight(revision: string, sent: EntityTagCondition, held: HeldRead | null): Sight {
	const proof = proofIn(sent, revision);
	if (proof !== null) return proof;
	return held !== null && held.revision === revision ? held.sight : "none";
}

/**
 * How much of the note a client has seen once its write landed, which decides the token its answer hands it: all
 * of it when it sent all of it (a replace; not a merge, whose result it never saw) or built on a revision it had
 * seen whole (an append, patch or edit); otherwise only the part it wrote.
 */
export function sightAfterWrite(write: {
	operation: WriteOperation["kind"];
	merged: boolean;
	unseenBody?: boolean;
	replaced: string | null;
	sent: EntityTagCondition;
	held: HeldRead | null;
}): Sight {
	if (write.unseenBody) return "none";
	if (write.operation === "replace") return write.merged ? "part" : "whole";
	// Appending to a note that was not there made it exactly what was sent.
	if (write.replaced === null) return "whole";
	return basisSight(write.replaced, write.sent, write.held) === "whole" ? "whole" : "part";
}

/** Whether `ifMatch` names the note's current revision (`revision`) but the note was handed out longer ago than the window allows. */
export function readExpired(
	deps: { history: RevisionHistory; now: () => number },
	path: string,
	revision: string,
	ifMatch: EntityTagCondition,
	windowMinutes: number,
): boolean {
	if (windowMinutes <= 0) return false;
	if (proofIn(ifMatch, revision) === null) return false;
	const servedAt = deps.history.find(path, revision)?.servedAt;
	return servedAt === undefined || deps.now() - servedAt > windowMinutes * 60_000;
}
