/**
 * Implicit tokens: a client that sends no If-Match (tools written for the Local REST API) is held to the revision
 * it last read of the note, as if it had sent that revision. Forgetting a read is always safe: it leads to 428.
 * Also the read validity window, which bounds sent tokens as it bounds held ones.
 */
import type { ReadLedger } from "../core/read-ledger";
import { revisionOf, strongMatch, type EntityTagCondition } from "../core/revision";
import type { RevisionHistory } from "../core/revision-history";
import type { RevisionGuardSettings } from "../settings";
import { clientOf } from "./actor";
import type { WriteRequest } from "./guarded-writer";

export interface ImplicitTokenDeps {
	reads: ReadLedger;
	settings: () => RevisionGuardSettings;
	now: () => number;
}

/** The revision a tokenless write from `client` to `path` would be held to now, or null (428 then). */
export function heldRevision(deps: ImplicitTokenDeps, client: string | undefined, path: string): string | null {
	const config = deps.settings();
	if (client === undefined || !config.protectTokenlessClients) return null;
	const read = deps.reads.lastRead(client, path);
	if (!read) return null;
	const windowMs = config.readValidityMinutes * 60_000;
	return windowMs > 0 && deps.now() - read.time > windowMs ? null : read.revision;
}

/**
 * The request as the guard checks it: a held revision stands in for a missing If-Match on replaces, deletes and
 * patches (appends and exact edits overwrite nothing they did not match, so they need none).
 */
export function withHeldRevision(request: WriteRequest, held: string | null): { checked: WriteRequest; implicit: boolean } {
	const applies = clientOf(request.actor) !== undefined && request.ifMatch.kind === "absent" && request.ifNoneMatch.kind === "absent" && request.operation.kind !== "append" && request.operation.kind !== "edit";
	if (!applies || held === null) return { checked: request, implicit: false };
	return { checked: { ...request, ifMatch: { kind: "tags", tags: [{ weak: false, opaque: held }] } }, implicit: true };
}

/** Whether `ifMatch` names the note's current revision but the note was handed out longer ago than the window allows. */
export function readExpired(deps: { history: RevisionHistory; now: () => number }, path: string, current: string, ifMatch: EntityTagCondition, windowMinutes: number): boolean {
	if (windowMinutes <= 0) return false;
	const revision = revisionOf(current);
	if (!strongMatch(ifMatch, revision)) return false;
	const servedAt = deps.history.find(path, revision)?.servedAt;
	return servedAt === undefined || deps.now() - servedAt > windowMinutes * 60_000;
}
