/** Builds the guarded writer's requests for tests, so each test says only what matters to it. */
import type { WriteOperation } from "../../src/core/guard";
import { parseEntityTagCondition, revisionOf } from "../../src/core/revision";
import type { HeldRead } from "../../src/service/stores/read-ledger";
import { agentActor, type Actor } from "../../src/service/notes/actor";
import type { WriteRequest } from "../../src/service/write/write-request";

export interface WriteRequestOptions {
	/** The note as the writer read it: If-Match is its revision. */
	basedOn?: string;
	/** An If-Match revision given as a token. */
	revision?: string;
	/** If-None-Match: * (create only). */
	createOnly?: boolean;
	/** An agent named "bot" unless said. */
	actor?: Actor;
	merge?: "auto";
	heldRevision?: HeldRead | null;
	allowEmpty?: boolean;
}

/** A write of `change` (a body to replace the note with, or any operation) to `path`; no conditions unless given. */
export function writeRequest(
	path: string,
	change: string | WriteOperation,
	options: WriteRequestOptions = {},
): WriteRequest {
	const { basedOn, revision, createOnly, actor, ...rest } = options;
	const token = revision ?? (basedOn === undefined ? undefined : revisionOf(basedOn));
	return {
		path,
		operation: typeof change === "string" ? { kind: "replace", body: change } : change,
		ifMatch: parseEntityTagCondition(token === undefined ? undefined : `"${token}"`),
		ifNoneMatch: parseEntityTagCondition(createOnly ? "*" : undefined),
		actor: actor ?? agentActor("bot"),
		...rest,
	};
}
