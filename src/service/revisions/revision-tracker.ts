/**
 * Keeps revision history in step with the vault: listens to gateway changes (coalescing bursts), reconciles at
 * start-up so edits made while we were not running become revisions, and attributes our own writes to the agent
 * that made them instead of recording them twice.
 */
import type { BaseStore } from "../stores/base-store";
import type { Timers } from "../../core/timers";
import { revisionOf } from "../../core/revision";
import { utf8Length } from "../../core/utf8";
import type { RevisionSource } from "../../core/revision-history";
import type { RevisionHistory } from "../stores/revision-history";
import type { ConflictLog } from "../stores/conflict-log";
import type { NoteSnapshot, ScannedNote, VaultChange, VaultGateway } from "../../vault/gateway";
import type { YieldToHost } from "../../core/steps";
import { reconcileVault, seenOf, type ReconcileReport } from "./start-up-reconcile";

export { RECENT_MS, type ReconcileReport } from "./start-up-reconcile";

export interface TrackerOptions {
	gateway: VaultGateway;
	history: RevisionHistory;
	bases: BaseStore;
	conflicts: ConflictLog;
	/** A note moved (any way): what else follows its path (proposals) learns of it with its conflicts. */
	onMoved?: (from: string, to: string) => void;
	now: () => number;
	timers: Timers;
	isNote: (path: string) => boolean;
	noteExtensions: () => readonly string[];
	/** Called whenever history changed and should be persisted. */
	onDirty: () => void;
	/**
	 * A new revision appeared that neither our writer nor an agent's command made (a save by the person's editor or by
	 * another program, seen as it happened or at start-up): the outside-save net judges it (outside-saves.ts).
	 */
	onObserved?: (observed: ObservedRevision) => void;
	/**
	 * A note the start-up reconcile read that changed recently (its mtime within RECENT_MS) and has not changed since
	 * we last ran: its text is what the next save replaces, so the outside-save net keeps it at hand.
	 */
	onRecent?: (path: string, revision: string, content: string) => void;
	/** How the reconcile gives the host a turn; by default a zero-delay timer. */
	yieldToHost?: YieldToHost;
	/** How long to wait for a burst of modify events to settle. */
	coalesceMs?: number;
	/** Source recorded for changes we did not make. */
	changeSource?: RevisionSource;
}

export interface ObservedRevision {
	path: string;
	content: string;
	revision: string;
	/** The note's latest revision before this one (what this save replaced); absent for a note seen the first time. */
	replaced?: string;
	source: RevisionSource;
	/** Seen by the start-up reconcile: it was made while we were not running. */
	atStartUp: boolean;
}

export class RevisionTracker {
	private readonly pending = new Map<string, unknown>();
	private readonly expected = new Map<string, { revision: string; source: RevisionSource }>();
	private unsubscribe: (() => void) | null = null;
	private inFlight = new Set<Promise<void>>();
	/** Who changes we did not make are credited to while an agent's Obsidian command runs (the latest such run). */
	private readonly attributions: RevisionSource[] = [];
	/** While a reconcile runs: whether history changed, saved once it is done. */
	private batch: { dirty: boolean } | null = null;

	/** Who changes we did not make are credited to: one object, not one per note recorded. */
	private readonly changeSource: RevisionSource;

	constructor(private readonly options: TrackerOptions) {
		this.changeSource = options.changeSource ?? { kind: "external" };
	}

	start(): void {
		this.unsubscribe ??= this.options.gateway.onChange((change) => this.onChange(change));
	}

	stop(): void {
		this.unsubscribe?.();
		this.unsubscribe = null;
		for (const timer of this.pending.values()) this.options.timers.cancel(timer);
		this.pending.clear();
	}

	/** Our own write is about to land: when its change event arrives, credit `source`, not the user. */
	expect(path: string, revision: string, source: RevisionSource): void {
		this.expected.set(path, { revision, source });
	}

	/**
	 * Until the returned function is called, changes we did not make are credited to `source` rather than to the
	 * person: an Obsidian command an agent ran changes notes through Obsidian, not through the guarded writer.
	 */
	attribute(source: RevisionSource): () => void {
		this.attributions.push(source);
		return () => {
			const index = this.attributions.indexOf(source);
			if (index >= 0) this.attributions.splice(index, 1);
		};
	}

	/** Records a revision we know about first-hand (an agent's write, or a note we just read). */
	record(path: string, content: string, revision: string, source: RevisionSource): void {
		const expected = this.expected.get(path);
		if (expected?.revision === revision) this.expected.delete(path);
		const { history, now, onDirty } = this.options;
		if (history.observe(path, revision, utf8Length(content), source, now())) onDirty();
	}

	/** A delete through the guarded writer: who removed `path`, and which revision (its text is kept as a base). */
	recordDeletion(path: string, revision: string, source: RevisionSource, change?: string): void {
		this.expected.delete(path);
		this.options.history.recordDeletion(path, revision, source, this.options.now(), change);
		this.options.onDirty();
	}

	/** A move through the guarded writer: the note's history and conflicts follow it, and the move is in its history. */
	recordMove(
		from: string,
		to: string,
		content: string,
		revision: string,
		source: RevisionSource,
		change: string,
	): void {
		this.expected.delete(from);
		this.options.history.recordMove(from, to, {
			revision,
			size: utf8Length(content),
			source,
			time: this.options.now(),
			change,
		});
		this.options.conflicts.rename(from, to);
		this.options.onMoved?.(from, to);
		this.options.onDirty();
	}

	/**
	 * A note's latest revision is part of an agent's change (the links Obsidian rewrote for its move): credited to it,
	 * since Obsidian's own modify event may have reached history first, as nobody's.
	 */
	recordChangePart(path: string, revision: string, source: RevisionSource, change: string): void {
		this.options.history.creditLatest(path, revision, source);
		this.options.history.markChange(path, revision, change);
		this.options.onDirty();
	}

	/** A note is being handed to an agent: remember when, and keep its content as a future merge base. */
	async served(snapshot: Pick<NoteSnapshot, "path" | "content">, knownRevision?: string): Promise<string> {
		// The caller may have hashed the content already (a read checks If-None-Match first): hash once per request.
		const revision = knownRevision ?? revisionOf(snapshot.content);
		this.record(snapshot.path, snapshot.content, revision, this.changeSource);
		// servedAt changed even when the revision was already recorded, so history needs saving either way.
		this.options.history.markServed(snapshot.path, revision, this.options.now());
		this.options.onDirty();
		await this.options.bases.retain(revision, snapshot.content);
		return revision;
	}

	/**
	 * Compares every note with the stored history; run once the vault is ready. History is saved once, when it is
	 * done, not again and again as each note is recorded (start-up-reconcile.ts).
	 */
	async reconcile(onProgress?: (done: number, total: number) => void): Promise<ReconcileReport> {
		const batch = { dirty: false };
		this.batch = batch;
		try {
			return await reconcileVault(
				{
					...this.options,
					observe: (snapshot) => this.observe(snapshot, this.changeSource, true),
					endBatch: () => {
						this.batch = null;
						if (batch.dirty) this.options.onDirty();
					},
				},
				onProgress,
			);
		} finally {
			if (this.batch === batch) this.batch = null;
		}
	}

	/** History changed: saved now (debounced), or once the reconcile under way is done. */
	private dirty(): void {
		if (this.batch) this.batch.dirty = true;
		else this.options.onDirty();
	}

	/** Waits for coalesced changes to be processed (tests, shutdown). */
	async flush(): Promise<void> {
		// Follow-up checks can schedule more work; a few rounds settle any vault that is not being edited right now.
		for (let round = 0; round < 10 && (this.pending.size > 0 || this.inFlight.size > 0); round++) {
			for (const path of [...this.pending.keys()]) {
				this.options.timers.cancel(this.pending.get(path));
				this.pending.delete(path);
				this.track(this.refresh(path));
			}
			while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
		}
	}

	private onChange(change: VaultChange): void {
		const { history, conflicts, isNote, now, onDirty } = this.options;
		if (change.type === "rename") {
			if (isNote(change.oldPath)) {
				history.rename(change.oldPath, change.path);
				conflicts.rename(change.oldPath, change.path);
				this.options.onMoved?.(change.oldPath, change.path);
				onDirty();
			}
			if (isNote(change.path)) this.schedule(change.path);
			return;
		}
		if (!isNote(change.path)) return;
		if (change.type === "delete") {
			this.options.timers.cancel(this.pending.get(change.path));
			this.pending.delete(change.path);
			history.markDeleted(change.path, now());
			onDirty();
			return;
		}
		this.schedule(change.path);
	}

	private schedule(path: string, delayMs = this.options.coalesceMs ?? 150): void {
		this.options.timers.cancel(this.pending.get(path));
		const timer = this.options.timers.schedule(() => {
			this.pending.delete(path);
			this.track(this.refresh(path));
		}, delayMs);
		this.pending.set(path, timer);
	}

	private track(work: Promise<void>): void {
		this.inFlight.add(work);
		void work.finally(() => this.inFlight.delete(work));
	}

	private async refresh(path: string): Promise<void> {
		try {
			const snapshot = await this.options.gateway.read(path);
			const changed = snapshot !== null && this.observe(seenOf(snapshot), this.changeSource);
			// Watchers can drop the last event of a fast burst (same mtime), so a change is checked once more after
			// things go quiet; the follow-up only repeats while it keeps finding changes.
			if (changed && !this.pending.has(path) && this.unsubscribe) this.schedule(path, FOLLOW_UP_MS);
		} catch {
			// A note that vanished or became unreadable mid-burst is picked up by its own delete event.
		}
	}

	/** Returns true when the note had a revision we had not recorded. */
	private observe(snapshot: ScannedNote, fallback: RevisionSource, atStartUp = false): boolean {
		const { revision } = snapshot;
		const expected = this.expected.get(snapshot.path);
		const ours = expected?.revision === revision;
		const attributed = this.attributions.at(-1);
		const source = ours ? expected.source : (attributed ?? fallback);
		if (ours) this.expected.delete(snapshot.path);
		const { history } = this.options;
		const replaced = history.latest(snapshot.path)?.revision;
		const isNew = history.observe(snapshot.path, revision, snapshot.stat.size, source, this.options.now());
		// The file this revision was read from, so a later start-up can trust it without reading (or forget a stale one).
		const identified = history.setIdentity(snapshot.path, revision, snapshot.identity);
		if (!isNew) {
			if (identified) this.dirty();
			return false;
		}
		this.dirty();
		// No merge base is kept here: the outside-save net decides which texts to keep, and when (outside-saves.ts).
		if (!ours && attributed === undefined && !(atStartUp && replaced === undefined))
			this.options.onObserved?.({
				path: snapshot.path,
				content: snapshot.text(),
				revision,
				...(replaced === undefined ? {} : { replaced }),
				source,
				atStartUp,
			});
		return true;
	}
}

const FOLLOW_UP_MS = 300;
