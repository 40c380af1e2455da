/**
 * The guarded copy: the source's text as it is now, written to the destination through the one guarded write (the
 * destination's lock and check). Copying overwrites nothing when the destination is new, so the source's revision is
 * not needed; when sent, the copy is made only of exactly that revision. An existing destination is replaced only
 * when the client asks to and proves it has that note whole (sent, or its last whole read), whatever the settings
 * say. A refused copy keeps nothing: its text is the source's, which stays where it is.
 *
 * The gateway needs no copy of its own: the copy's text is the note as the gateway reads it (an open editor's buffer
 * included, which a file copy would miss), and the destination's atomic step is `mutate`'s, which never creates over
 * a note that appeared meanwhile (If-None-Match: *) nor replaces one that changed since its revision was read.
 */
import type { HeldRead } from "../stores/read-ledger";
import { revisionOf, sentRevisions } from "../../core/revision";
import { proofIn, sentTokenKind } from "../../core/revision-tokens";
import { VaultPathError } from "../../vault/errors";
import type { VaultGateway } from "../../vault/gateway";
import { clientOf } from "../notes/actor";
import { basisSight } from "../write/implicit-tokens";
import type { CopyOutcome, CopyRequest, RelocationRefusal } from "./move-request";
import { relocationRefused } from "../refusals/relocation-report";
import type { WriteOutcome, WriteRequest } from "../write/write-request";

export interface CopyDeps {
	gateway: VaultGateway;
	/** The guarded writer's write. */
	write: (request: WriteRequest) => Promise<WriteOutcome>;
	heldRevision: (client: string | undefined, path: string) => HeldRead | null;
}

export async function copyNote(deps: CopyDeps, request: CopyRequest): Promise<CopyOutcome> {
	const { from, to, actor, ifMatch } = request;
	const client = clientOf(actor);
	const heldDestination =
		request.heldDestination !== undefined ? request.heldDestination : deps.heldRevision(client, to);
	const note = await deps.gateway.read(from);
	if (note === null) return { kind: "missing" };
	const revision = revisionOf(note.content);
	const refusedSource = (refusal: RelocationRefusal): CopyOutcome =>
		relocationRefused({
			kind: "refused",
			side: "source",
			path: from,
			refusal,
			currentRevision: revision,
			implicit: false,
		});
	if (ifMatch.kind === "malformed") return refusedSource({ reason: "malformed-condition", header: "If-Match" });
	if (ifMatch.kind === "tags") {
		if (sentTokenKind(ifMatch) === "tag") return refusedSource({ reason: "token-required", sent: "change-tag" });
		if (proofIn(ifMatch, revision) === null)
			return refusedSource({ reason: "stale", sentRevision: sentRevisions(ifMatch)[0] ?? null });
	}
	// What the client has seen of the text it copies decides the token the copy's answer may hand it.
	const seen = basisSight(revision, ifMatch, deps.heldRevision(client, from));
	let outcome: WriteOutcome;
	try {
		outcome = await write(deps, request, note.content, heldDestination, seen === "whole");
	} catch (error) {
		// A folder at the destination is taken, as a note there is (the Local REST API answers both alike).
		if (error instanceof VaultPathError && error.reason === "folder-in-the-way")
			return relocationRefused({
				kind: "refused",
				side: "destination",
				path: to,
				refusal: { reason: "destination-exists", notANote: true },
				currentRevision: null,
				implicit: false,
			});
		throw error;
	}
	switch (outcome.kind) {
		case "written":
			return { kind: "copied", from, to, revision: outcome.revision, sight: outcome.sight, created: outcome.created };
		case "unchanged":
			return { kind: "copied", from, to, revision: outcome.revision, sight: outcome.sight, created: false };
		case "refused": {
			const refusal: RelocationRefusal =
				outcome.refusal.reason === "exists" ? { reason: "destination-exists" } : outcome.refusal;
			return relocationRefused({
				kind: "refused",
				side: "destination",
				path: to,
				refusal,
				currentRevision: outcome.currentRevision,
				implicit: outcome.implicit,
			});
		}
		// The guarded writer's own write: proposals are AgentNotes' (a copy over a note the key may only propose to is refused there).
		case "proposed":
		case "deleted":
		case "inapplicable":
			throw new Error(`a copy's write ended as "${outcome.kind}"`);
	}
}

/** The destination's write: a create (never over anything), or, when asked, a replace that needs its revision. */
function write(
	deps: CopyDeps,
	request: CopyRequest,
	text: string,
	heldDestination: HeldRead | null,
	seenWhole: boolean,
): Promise<WriteOutcome> {
	return deps.write({
		path: request.to,
		operation: { kind: "replace", body: text },
		ifMatch: request.overwrite ? request.destinationIfMatch : { kind: "absent" },
		ifNoneMatch: request.overwrite ? { kind: "absent" } : { kind: "any" },
		actor: request.actor,
		heldRevision: request.overwrite ? heldDestination : null,
		allowEmpty: true,
		requireToken: true,
		bodyKeptElsewhere: true,
		...(seenWhole ? {} : { unseenBody: true }),
	});
}
