/**
 * What a client may be handed for a revision, decided by how much of the note it was shown with it. The guard exists
 * to stop an agent writing from memory over text it never saw, so a token that passes If-Match only ever comes with
 * the content it names:
 * - `whole`: the revision itself, from a read of the whole note (or a write of all of it, or a refusal that carries
 *   every change since the client's own whole revision). It passes every write.
 * - `part`: `part.<hash>`, from a document map or a section read. It passes a PATCH, which changes only the part it
 *   names, never a whole-note PUT or a DELETE.
 * - `none`: a change tag, `tag.<hash>` (an ETag `W/"tag.<hash>"`), from listings, HEAD, 428s, history and conflict
 *   records. It serves If-None-Match and change detection, and passes no If-Match at all.
 * Both derived forms are one-way hashes of the revision, so neither can be turned back into it.
 */
import * as crypto from "crypto";
import type { EntityTagCondition } from "./revision";

export type Sight = "whole" | "part" | "none";

export const PART_PREFIX = "part.";
export const TAG_PREFIX = "tag.";

/** The token a document map or a section read hands out: it passes a PATCH of that revision only. */
export function partTokenOf(revision: string): string {
	return PART_PREFIX + derived("part", revision);
}

/** The change tag of a revision: it tells that a note changed, and proves nothing about what a client read. */
export function changeTagOf(revision: string): string {
	return TAG_PREFIX + derived("tag", revision);
}

/** The value a client is handed for `revision` when it saw that much of the note (JSON fields, MCP, the CLI). */
export function tokenFor(revision: string, sight: Sight): string {
	return sight === "whole" ? revision : sight === "part" ? partTokenOf(revision) : changeTagOf(revision);
}

/** The ETag header for `revision` when the answer showed that much of the note: a change tag is a weak validator. */
export function etagFor(revision: string, sight: Sight): string {
	return sight === "none" ? `W/"${changeTagOf(revision)}"` : `"${tokenFor(revision, sight)}"`;
}

/**
 * A revision as a JSON answer names it: under `name` when the client may use it as a token (whole or part), and as
 * `changeTag` when it may not (the field a token would be in is then left out, so it is never mistaken for one).
 */
export function revisionField<Name extends string>(
	name: Name,
	revision: string,
	sight: Sight,
): { [key in Name]?: string } & { changeTag?: string } {
	return (sight === "none" ? { changeTag: changeTagOf(revision) } : { [name]: tokenFor(revision, sight) }) as {
		[key in Name]?: string;
	} & { changeTag?: string };
}

/** What a token a client sent claims to be, by its form. */
export function tokenKind(opaque: string): "whole" | "part" | "tag" {
	return opaque.startsWith(PART_PREFIX) ? "part" : opaque.startsWith(TAG_PREFIX) ? "tag" : "whole";
}

/**
 * How much of `revision` an If-Match proves the client saw: a strong tag naming the revision itself proves the whole
 * note, one naming its part token proves a part; weak tags and change tags prove nothing.
 */
export function proofIn(condition: EntityTagCondition, revision: string): "whole" | "part" | null {
	if (condition.kind !== "tags") return null;
	let part: string | undefined;
	let proof: "part" | null = null;
	for (const tag of condition.tags) {
		if (tag.weak) continue;
		if (tag.opaque === revision) return "whole";
		if (tokenKind(tag.opaque) === "part" && tag.opaque === (part ??= partTokenOf(revision))) proof = "part";
	}
	return proof;
}

/**
 * Which form of `revision` an If-None-Match names (weak comparison, RFC 9110 §8.8.3.2), or null: any form serves,
 * since a client only ever asks "has it changed since what I was handed".
 */
export function noneMatchSight(condition: EntityTagCondition, revision: string): Sight | null {
	if (condition.kind !== "tags") return null;
	let best: Sight | null = null;
	for (const tag of condition.tags) {
		const kind = tokenKind(tag.opaque);
		if (kind === "whole" && tag.opaque === revision) return "whole";
		if (kind === "part" && tag.opaque === partTokenOf(revision)) best = "part";
		if (kind === "tag" && best === null && tag.opaque === changeTagOf(revision)) best = "none";
	}
	return best;
}

/**
 * What kind of token an If-Match sent, for the refusal that names it: "tag" when every tag is a change tag (it never
 * passes), "part" when the rest are part tokens (never enough to replace or delete), else "whole" (a revision, or an
 * old client's weak tag of one: judged as stale or current like any revision). Null when no tags were sent.
 */
export function sentTokenKind(condition: EntityTagCondition): "whole" | "part" | "tag" | null {
	if (condition.kind !== "tags") return null;
	const kinds = condition.tags.map((tag) => tokenKind(tag.opaque));
	if (kinds.includes("whole")) return "whole";
	return kinds.includes("part") ? "part" : "tag";
}

function derived(purpose: string, revision: string): string {
	return crypto.createHash("sha256").update(`revision-guard ${purpose}\n${revision}`).digest("base64url");
}
