/**
 * What a change an agent may only propose would make of the note as it is now. Decided by the writer's own pure
 * decision (core/guard.ts), with one difference: the token. A proposal writes nothing, and the person sees it against
 * the note before anything is written, so it is decided as if the agent had read the note as it is now: a stale or
 * missing token does not stop a proposal (it only moves its base, proposal-store.ts). Everything else the writer
 * would refuse is refused the same way here: a malformed token, a create-only change of an existing note, an empty
 * body over a note, a patch or edit of a missing note, or one that does not apply.
 */
import { decideWrite } from "../../core/guard";
import { revisionOf, type EntityTagCondition } from "../../core/revision";
import { basisSight, sightAfterWrite } from "../write/implicit-tokens";
import { refusedWithout } from "../refusals/refusal";
import type { WriteOutcome, WriteRequest } from "../write/write-request";

export type ProposedChange =
	/** `created`: the note does not exist, and the proposal would create it. */
	| { kind: "proposal"; content: string; created: boolean }
	/** Nothing to propose: what the writer would have answered instead (nothing was kept, nothing written). */
	| { kind: "not-proposed"; outcome: WriteOutcome };

export function proposedChange(current: string | null, request: WriteRequest): ProposedChange {
	const { operation, ifMatch, ifNoneMatch } = request;
	if (operation.kind === "delete") throw new Error("A delete carries no content, so it cannot be proposed.");
	const revision = current === null ? null : revisionOf(current);
	const asRead: EntityTagCondition =
		ifMatch.kind === "malformed"
			? ifMatch
			: revision === null
				? { kind: "absent" }
				: { kind: "tags", tags: [{ weak: false, opaque: revision }] };
	const decision = decideWrite(current, {
		operation,
		ifMatch: asRead,
		ifNoneMatch,
		requireToken: false,
		allowEmpty: request.allowEmpty === true,
		implicit: true,
	});
	switch (decision.kind) {
		case "write":
			return { kind: "proposal", content: decision.content, created: decision.created };
		case "unchanged":
			// The note already holds it: there is nothing for the person to decide.
			return {
				kind: "not-proposed",
				outcome: {
					kind: "unchanged",
					revision: revision!,
					sight: sightAfterWrite({
						operation: operation.kind,
						merged: false,
						replaced: revision,
						sent: ifMatch,
						held: null,
					}),
				},
			};
		case "inapplicable":
			return {
				kind: "not-proposed",
				outcome: {
					kind: "inapplicable",
					...decision.failure,
					currentRevision: revision!,
					currentSight: basisSight(revision!, ifMatch, null),
				},
			};
		case "refuse":
			return { kind: "not-proposed", outcome: refusedWithout(decision.refusal, null) };
		case "delete":
			throw new Error("A delete carries no content, so it cannot be proposed.");
	}
}
