/**
 * Who changed which note: the gateway's change feed (every change, ours included), each change credited to the
 * agent whose write through the service made it, or to nobody (the person in Obsidian, another program). Agents
 * subscribed to a note are told when someone else changed it, never about their own writes.
 */
import { revisionOf } from "../../core/revision";
import type { Timers } from "../../core/timers";
import type { VaultChange, VaultGateway } from "../../vault/gateway";
import type { Actor } from "../notes/actor";
import type { WriteOutcome } from "../write/write-request";

export interface NoteChange {
	path: string;
	/** The note's revision once the change landed; null when it is gone (deleted, or moved away). */
	revision: string | null;
	/** The actor whose write through the service produced exactly this revision; null for anyone else. */
	by: Actor | null;
}

export type NoteChangeListener = (change: NoteChange) => void;

interface Subscriber {
	listener: NoteChangeListener;
	wants: (path: string) => boolean;
}

/** Writes remembered for crediting their change events (which a folder watcher delivers late): the most recent. */
const REMEMBERED_WRITES = 1000;
/**
 * A note is read once more this long after its last change event: a watcher can report a burst (truncate, then
 * write) once, while it was half done, and drop the rest (the tracker re-checks for the same reason).
 */
const FOLLOW_UP_MS = 300;

export class NoteChangeFeed {
	private readonly subscribers = new Set<Subscriber>();
	/** Writes under way, per note: a change event waits for them, so it can tell whose write it saw. */
	private readonly pending = new Map<string, Set<Promise<unknown>>>();
	private readonly lastWrite = new Map<string, { revision: string | null; by: Actor }>();
	/** One change at a time per note, so listeners see a note's revisions in the order they were read. */
	private readonly queues = new Map<string, Promise<void>>();
	private readonly followUps = new Map<string, unknown>();
	private unwatch: (() => void) | null = null;

	constructor(
		private readonly gateway: VaultGateway,
		private readonly timers: Timers,
	) {}

	/** Calls `listener` for every change to a note `wants`; returns the unsubscriber. */
	subscribe(listener: NoteChangeListener, wants: (path: string) => boolean): () => void {
		const subscriber = { listener, wants };
		this.subscribers.add(subscriber);
		this.unwatch ??= this.gateway.onChange((change) => this.onVaultChange(change));
		return () => {
			this.subscribers.delete(subscriber);
			if (this.subscribers.size > 0) return;
			this.unwatch?.();
			this.unwatch = null;
			for (const timer of this.followUps.values()) this.timers.cancel(timer);
			this.followUps.clear();
		};
	}

	/**
	 * Follows a write through the service, so the change it makes is credited to `by`. The change is announced from
	 * here too: a folder watcher may miss a write that replaced the file in one rename.
	 */
	track(path: string, by: Actor, write: Promise<WriteOutcome>): Promise<WriteOutcome> {
		return this.trackMany([path], by, write, (outcome) =>
			outcome.kind === "written"
				? [{ path, revision: outcome.revision }]
				: outcome.kind === "deleted"
					? [{ path, revision: null }]
					: [],
		);
	}

	/**
	 * Follows a change through the service that may touch several notes (a move: the note's old path, its new one,
	 * the notes whose links were rewritten), crediting what `landed` says each now holds (null: gone) to `by`.
	 */
	trackMany<T>(
		paths: readonly string[],
		by: Actor,
		work: Promise<T>,
		landed: (outcome: T) => { path: string; revision: string | null }[],
	): Promise<T> {
		const followed = work.then((outcome) => {
			const changes = landed(outcome);
			for (const { path, revision } of changes) this.remember(path, revision, by);
			for (const { path } of changes) this.changed(path);
			return outcome;
		});
		for (const path of paths) {
			const under = this.pending.get(path) ?? new Set<Promise<unknown>>();
			this.pending.set(path, under);
			under.add(followed);
			const done = () => {
				under.delete(followed);
				if (under.size === 0 && this.pending.get(path) === under) this.pending.delete(path);
			};
			followed.then(done, done);
		}
		return followed;
	}

	private remember(path: string, revision: string | null, by: Actor): void {
		this.lastWrite.delete(path);
		this.lastWrite.set(path, { revision, by });
		for (const oldest of this.lastWrite.keys()) {
			if (this.lastWrite.size <= REMEMBERED_WRITES) break;
			this.lastWrite.delete(oldest);
		}
	}

	/** `path` changed, by whoever: listeners learn its revision now (a repeat of a change already told is harmless). */
	changed(path: string): void {
		this.enqueue(path);
	}

	private onVaultChange(change: VaultChange): void {
		if (change.type === "rename") this.enqueue(change.oldPath);
		this.enqueue(change.path);
		this.followUp(change.path);
	}

	private followUp(path: string): void {
		if (!this.wanted(path)) return;
		this.timers.cancel(this.followUps.get(path));
		this.followUps.set(
			path,
			this.timers.schedule(() => {
				this.followUps.delete(path);
				this.enqueue(path);
			}, FOLLOW_UP_MS),
		);
	}

	private wanted(path: string): boolean {
		return [...this.subscribers].some((subscriber) => subscriber.wants(path));
	}

	private enqueue(path: string): void {
		if (!this.wanted(path)) return;
		const previous = this.queues.get(path) ?? Promise.resolve();
		const next = previous.then(() => this.announce(path));
		this.queues.set(path, next);
		void next.finally(() => {
			if (this.queues.get(path) === next) this.queues.delete(path);
		});
	}

	private async announce(path: string): Promise<void> {
		// The write that caused this event may still be finishing: wait, so it is known whose write this is.
		await Promise.allSettled([...(this.pending.get(path) ?? [])]);
		let revision: string | null;
		try {
			const snapshot = await this.gateway.read(path);
			revision = snapshot ? revisionOf(snapshot.content) : null;
		} catch {
			// A note that cannot be read now (not UTF-8, gone mid-read) is not served either: nothing to tell.
			return;
		}
		const last = this.lastWrite.get(path);
		const change: NoteChange = { path, revision, by: last && last.revision === revision ? last.by : null };
		for (const subscriber of [...this.subscribers]) {
			if (!subscriber.wants(path)) continue;
			try {
				subscriber.listener(change);
			} catch {
				// One listener's failure must not keep the change from the others.
			}
		}
	}
}
