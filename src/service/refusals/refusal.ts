/**
 * Answering a refused write, in two steps. Inside the note's lock, only what must be ordered with the note's writes:
 * the note as the refusal saw it, and recording that the agent is handed it. Outside it, first keep what the write
 * carried (the .bak and conflict record), then add what helps the agent retry (a bounded diff since its read, a
 * merge preview), each within the answer's cap. Keeping a body needs no lock: the .bak is a new file that never
 * replaces anything, and the record names the revision that refused it, captured inside the lock.
 */
import type { BaseStore } from "../stores/base-store";
import type { ConflictReason } from "../../core/conflicts";
import type { ConflictLog } from "../stores/conflict-log";
import { headOfText, type Page } from "../../core/diff/page";
import { applyEdits } from "../../core/edit";
import type { NoteState, Refusal, WriteOperation } from "../../core/guard";
import type { MergeRule } from "../../core/merge";
import type { RevisionHistory } from "../stores/revision-history";
import type { Sight } from "../../core/revision-tokens";
import type { RevisionGuardSettings } from "../../settings";
import type { VaultGateway } from "../../vault/gateway";
import { actorLabel } from "../notes/actor";
import { diffCapBytes, type DiffPages, type DiffSide } from "../history/diff-pages";
import { keepRefusedBody } from "../write/refused-body";
import { refusalReport } from "./refusal-report";
import type { BackupNames } from "../write/backup-names";
import type { RevisionTracker } from "../revisions/revision-tracker";
import { baseFor, type WriteOutcome, type WriteRequest } from "../write/write-request";

export interface RefusalDeps {
	gateway: VaultGateway;
	tracker: RevisionTracker;
	bases: BaseStore;
	/** Where a part token sent with a stale patch is looked up, to diff from the revision it stands for. */
	history: RevisionHistory;
	conflicts: ConflictLog;
	settings: () => RevisionGuardSettings;
	now: () => number;
	conflictsSaved: () => Promise<void>;
	/** .bak names being created right now, and hints to the next free one (see RefusedBodyDeps). */
	backupNames: BackupNames;
	diffs: DiffPages;
	onError?: (error: unknown) => void;
}

/**
 * What the refused write was checked against: `implicit`, the client's last read stood in for a revision it did not
 * send; `lastReadPart`, it sent none and its last read was of part of the note, which cannot stand in for the whole.
 */
export interface RefusalBasis {
	implicit: boolean;
	lastReadPart: boolean;
}

/** Refusals that leave a client holding content it wanted written: those get a .bak and a conflict record. */
const KEEP_BODY: ReadonlySet<Refusal["reason"]> = new Set([
	"stale",
	"exists",
	"read-expired",
	"content-loss",
	"note-in-use",
]);

/**
 * What answering a refusal needs from inside the note's lock: the note as the refusal saw it, and the hand-over of
 * that note to the agent as read, started there so that history records it in order with the note's writes.
 */
export interface SeenRefusal {
	request: WriteRequest;
	refusal: Refusal;
	current: string | null;
	/** The revision of `current`, hashed once inside the lock. */
	currentRevision: string | null;
	mergePreview: string | null;
	mergeRules: readonly MergeRule[];
	/** Resolves true once the current note counts as served (its base kept), false when that failed (reported). */
	served: Promise<boolean>;
	/** How much of the revision it sent the client had seen (a part token, or a held read of a part, is "part"). */
	sentSight: "whole" | "part";
}

/** The part of a refusal that needs the note's lock: cheap and synchronous but for the base it starts keeping. */
export function seeRefusal(
	deps: Pick<RefusalDeps, "tracker" | "onError">,
	request: WriteRequest,
	refusal: Refusal,
	note: NoteState | null,
	mergePreview: string | null,
	mergeRules: readonly MergeRule[] = [],
	sentSight: "whole" | "part" = "whole",
): SeenRefusal {
	// The refusal hands the agent the current revision (and a diff to it): that counts as having read it, so the
	// documented retry with currentRevision is not refused by the read validity window.
	const served =
		note === null
			? Promise.resolve(false)
			: deps.tracker.served({ path: request.path, content: note.content }, note.revision).then(
					() => true,
					(error: unknown) => {
						deps.onError?.(error);
						return false;
					},
				);
	const current = note?.content ?? null;
	return {
		request,
		refusal,
		current,
		currentRevision: note?.revision ?? null,
		mergePreview,
		mergeRules,
		served,
		sentSight,
	};
}

/**
 * The rest, outside the note's lock: keep what the write carried (the .bak and the conflict record, both durable
 * before this resolves), then add what helps the agent retry (a bounded diff since its read, a merge preview).
 */
export async function answerRefusal(
	deps: RefusalDeps,
	seen: SeenRefusal,
	basis: RefusalBasis = { implicit: false, lastReadPart: false },
): Promise<Extract<WriteOutcome, { kind: "refused" }>> {
	const { request, current, currentRevision, mergePreview, mergeRules } = seen;
	// A read of part of the note did not stand in for the If-Match: say so, or the 428 makes no sense to the client.
	const decided =
		basis.lastReadPart && seen.refusal.reason === "token-required"
			? { ...seen.refusal, lastReadPart: true }
			: seen.refusal;
	// A stale part token (a document map's version) stands for a revision: diff and keep from that one.
	const refusal =
		decided.reason === "stale" && decided.sentRevision !== null
			? { ...decided, sentRevision: revisionOfToken(deps.history, request.path, decided.sentRevision) }
			: decided;
	const sentRevision = refusal.reason === "stale" || refusal.reason === "read-expired" ? refusal.sentRevision : null;
	// A patch or edit that no longer applies to the note now is kept as it applies to the revision the agent read.
	const body =
		bodyOf(request.operation, current) ??
		(sentRevision === null ? null : await bodyOnBase(deps.bases, request, sentRevision));
	const keep =
		KEEP_BODY.has(refusal.reason) &&
		body !== null &&
		body !== current &&
		request.actor.kind === "agent" &&
		request.bodyKeptElsewhere !== true;
	const kept =
		keep && body !== null
			? await keepRefusedBody(
					{ ...deps, backupFolder: () => deps.settings().backupFolder },
					{
						path: request.path,
						body,
						reason: refusal.reason as ConflictReason,
						sentRevision,
						currentRevision,
						agent: actorLabel(request.actor),
					},
				)
			: null;
	// The body is safe now. What follows grows with the note and may fail: it only adds to the answer, which stays
	// within the cap as a whole (a diff and a merge preview share it).
	const budget = diffCapBytes(deps.settings()) / (mergePreview === null ? 1 : 2);
	let changes: Page | null = null;
	try {
		if ((await seen.served) && sentRevision !== null)
			changes = await changesSince(
				deps,
				request,
				sentRevision,
				{ revision: currentRevision!, content: current! },
				budget,
			);
	} catch (error) {
		deps.onError?.(error);
	}
	const preview =
		mergePreview === null
			? null
			: { ...headOfText(mergePreview, budget), ...(mergeRules.length > 0 ? { rules: [...mergeRules] } : {}) };
	// The client may be handed the note's revision only with every change from what it had seen to it.
	const complete = refusal.reason === "stale" && changes !== null && !changes.truncated && !changes.lineCut;
	const currentSight: Sight = complete ? seen.sentSight : "none";
	const facts = {
		kind: "refused" as const,
		refusal,
		currentRevision,
		currentSight,
		sentSight: seen.sentSight,
		conflict: kept?.conflict ?? null,
		backupError: kept?.backupError ?? null,
		changes,
		mergePreview: preview,
		implicit: basis.implicit,
	};
	return { ...facts, report: refusalReport(facts, changeOf(request), kept?.recordError ?? null) };
}

/** The revision a sent token names: itself, or for a part token the revision of the note's history it was made from. */
function revisionOfToken(history: RevisionHistory, path: string, token: string): string {
	return history.revisionNamed(path, token) ?? token;
}

async function changesSince(
	deps: RefusalDeps,
	request: WriteRequest,
	sentRevision: string,
	current: DiffSide,
	maxBytes: number,
): Promise<Page | null> {
	const base = await baseFor(deps.bases, request, sentRevision);
	if (base === null) return null;
	const { path } = request;
	return deps.diffs.page({ path, from: { revision: sentRevision, content: base }, to: current, offset: 0, maxBytes });
}

/** What a refused write wanted the note to hold (a patch: applied to the note as it is), or null. */
function bodyOf(operation: WriteOperation, current: string | null): string | null {
	switch (operation.kind) {
		case "delete":
			return null;
		case "patch": {
			const patched = current === null ? null : operation.apply(current);
			return patched?.ok ? patched.content : null;
		}
		case "edit": {
			const edited = current === null ? null : applyEdits(current, operation.edits);
			return edited?.ok ? edited.content : null;
		}
		default:
			return operation.body;
	}
}

/** A patch or edit applied to the retained revision it was meant for, or null (no base, or it does not apply there either). */
async function bodyOnBase(bases: BaseStore, request: WriteRequest, sentRevision: string): Promise<string | null> {
	const { operation } = request;
	if (operation.kind !== "patch" && operation.kind !== "edit") return null;
	const base = await baseFor(bases, request, sentRevision).catch(() => null);
	return base === null ? null : bodyOf(operation, base);
}

/** A refusal decided before the note was looked at (nothing to keep, nothing to diff). */
export function refusedWithout(refusal: Refusal, currentRevision: string | null): WriteOutcome {
	const facts = {
		kind: "refused" as const,
		refusal,
		currentRevision,
		currentSight: "none" as const,
		sentSight: "whole" as const,
		conflict: null,
		backupError: null,
		changes: null,
		mergePreview: null,
		implicit: false,
	};
	return { ...facts, report: refusalReport(facts, "write") };
}

function changeOf(request: WriteRequest): "write" | "delete" {
	return request.operation.kind === "delete" ? "delete" : "write";
}
