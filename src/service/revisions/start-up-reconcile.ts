/**
 * The start-up reconcile: every note the vault lists is compared with the stored history, so edits made while we
 * were not running become revisions and notes deleted meanwhile are marked so. A note whose file identity is the one
 * its latest revision was read from is trusted without reading; the rest are read a few at a time, and the host
 * gets a turn every slice.
 */
import { revisionOf } from "../../core/revision";
import { SLICE_MS, yieldVia } from "../../core/steps";
import type { NoteScan, NoteSnapshot, ScannedNote } from "../../vault/gateway";
import type { TrackerOptions } from "./revision-tracker";

export interface ReconcileReport {
	checked: number;
	/** Notes whose content differs from their last recorded revision (edited while we were not running). */
	changed: number;
	/** Notes seen for the first time. */
	added: number;
	removed: number;
}

/** What the reconcile needs of the tracker running it. */
export interface ReconcileContext extends TrackerOptions {
	/** Records a note seen at start-up; true when it had a revision history had not recorded. */
	observe: (snapshot: ScannedNote) => boolean;
	/** Every note has been looked at: history changed by them is saved now, once (before deletions are marked). */
	endBatch: () => void;
}

const RECONCILE_CONCURRENCY = 8;
/** "Recently changed", for the notes whose text the reconcile hands the outside-save net: the last day. */
export const RECENT_MS = 24 * 60 * 60 * 1000;
/** At most this many of them per start (a vault copied in today is not kept whole). */
const MAX_RECENT_AT_START = 2000;

/** The reconcile's running tally. */
interface ReconcileCounts {
	changed: number;
	added: number;
	/** Listed notes that were live in history when they were looked at, and how often this reconcile changed liveness. */
	known: number;
	ownLiveChanges: number;
	/** Recent notes handed to the outside-save net so far, and since when a note counts as recent. */
	recent: number;
	recentSince: number;
}

export async function reconcileVault(
	context: ReconcileContext,
	onProgress?: (done: number, total: number) => void,
): Promise<ReconcileReport> {
	const { gateway, history } = context;
	// Notes with history before the listing: those it does not hold were deleted while we were down (one made since,
	// and recorded meanwhile, may not be listed but is not gone). None on a first start.
	const trackedBefore = history.trackedPaths();
	const liveChangesBefore = history.liveChanges;
	// What the watcher listed as it started will do (tracking starts before the reconcile): a note changed since is
	// told by its own event.
	const paths = await gateway.listNotes(context.noteExtensions(), { watched: true });
	const counts: ReconcileCounts = {
		changed: 0,
		added: 0,
		known: 0,
		ownLiveChanges: 0,
		recent: 0,
		recentSince: context.now() - RECENT_MS,
	};
	let done = 0;
	let next = 0;
	const pace = pacer(context);
	// A few reads in flight keep the disk busy without flooding memory on a large vault. A gateway that can look at
	// a note at once (scanNow) is not waited on per note: the host gets a turn every slice instead.
	const worker = async () => {
		while (next < paths.length) {
			const slice = pace();
			if (slice) {
				await slice;
				continue;
			}
			const path = paths[next++]!;
			const scan = scanNow(context, path);
			if (scan === undefined) await reconcileRead(context, path, counts);
			else if (scan.kind === "read") reconciled(context, scan, counts);
			// An identity is recorded only beside a live note's latest revision.
			else if (scan.kind === "unchanged") counts.known++;
			onProgress?.(++done, paths.length);
		}
	};
	try {
		await Promise.all(Array.from({ length: RECONCILE_CONCURRENCY }, worker));
	} finally {
		gateway.endScan?.();
		context.endBatch();
	}
	let removed = 0;
	// Every note tracked before was listed when as many listed notes were tracked as were tracked before: known
	// exactly while nothing but this reconcile changed which notes are live (each listed note was looked at before
	// this reconcile recorded it, and a listing names a note once). Otherwise the lists are compared.
	const othersChangedLiveness = history.liveChanges - liveChangesBefore !== counts.ownLiveChanges;
	const compare = othersChangedLiveness || counts.known !== trackedBefore.length;
	const present = new Set(compare ? paths : []);
	for (const path of compare ? trackedBefore : []) {
		// Still recorded as there (its delete event may have come meanwhile), and not listed.
		if (!present.has(path) && history.latest(path) !== undefined) {
			history.markDeleted(path, context.now());
			removed++;
		}
	}
	const { changed, added } = counts;
	if (changed + added + removed > 0) context.onDirty();
	return { checked: paths.length, changed, added, removed };
}

/**
 * Gives the host a turn once a slice of work has run: one turn for all the workers. Each awaiting a turn of its own,
 * they would all resume in the same turn of the host's loop, one slice after another, and block it for as many
 * slices as there are workers.
 */
function pacer(context: ReconcileContext): () => Promise<void> | undefined {
	const yieldToHost = context.yieldToHost ?? yieldVia(context.timers);
	let sliceStart = performance.now();
	let turn: Promise<void> | null = null;
	return () => {
		if (performance.now() - sliceStart < SLICE_MS) return undefined;
		turn ??= yieldToHost().then(() => {
			sliceStart = performance.now();
			turn = null;
		});
		return turn;
	};
}

/** The gateway's immediate look at a note (see VaultGateway.scanNow); a failed one is a note that could not be read. */
function scanNow({ gateway, history }: ReconcileContext, path: string): NoteScan | undefined {
	if (!gateway.scanNow) return undefined;
	// Recorded only beside the latest revision of a note that is there (RevisionHistory.setIdentity).
	const recorded = history.identityOf(path);
	try {
		return gateway.scanNow(path, recorded);
	} catch {
		return { kind: "missing" };
	}
}

/** One note of the reconcile through the gateway's ordinary read. */
async function reconcileRead(context: ReconcileContext, path: string, counts: ReconcileCounts): Promise<void> {
	// Unchanged since its latest revision was read (a stat says so): trusted without reading. Its text, if it
	// changed recently, was handed to the outside-save net when it was read then.
	if (await unchangedSinceRead(context, path)) {
		counts.known++;
		return;
	}
	const snapshot = await context.gateway.read(path).catch(() => null);
	if (snapshot !== null) reconciled(context, seenOf(snapshot), counts);
}

/**
 * Whether a stat shows the very file the note's latest revision was read from (its recorded identity, recorded
 * only for a file that had settled when read: see NoteHistory.identity).
 */
async function unchangedSinceRead({ gateway, history }: ReconcileContext, path: string): Promise<boolean> {
	const recorded = history.identityOf(path);
	if (recorded === undefined || history.latest(path) === undefined || !gateway.identity) return false;
	const now = await gateway.identity(path).catch(() => null);
	return now === recorded;
}

/** Records a note the reconcile read. */
function reconciled(context: ReconcileContext, snapshot: ScannedNote, counts: ReconcileCounts): void {
	const { history } = context;
	const known = history.latest(snapshot.path) !== undefined;
	if (known) counts.known++;
	const isNew = context.observe(snapshot);
	// Recording a new revision is one change (RevisionHistory.liveChanges); anything else it set off is another's.
	if (isNew) counts.ownLiveChanges++;
	if (isNew && known) counts.changed++;
	else if (isNew) counts.added++;
	// A known note that changed while we were down is judged as a save (onObserved); any other recent one is kept.
	if (!(isNew && known) && snapshot.stat.mtime >= counts.recentSince && counts.recent++ < MAX_RECENT_AT_START) {
		context.onRecent?.(snapshot.path, history.latest(snapshot.path)!.revision, snapshot.text());
	}
}

/** A note read the ordinary way, seen as a scanned one (hashed here). */
export function seenOf(snapshot: NoteSnapshot): ScannedNote {
	const { content, ...rest } = snapshot;
	return { ...rest, revision: revisionOf(content), text: () => content };
}
