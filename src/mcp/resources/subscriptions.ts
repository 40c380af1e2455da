/**
 * One session's subscriptions to notes: when someone else (the person, another program, another session) changes a
 * subscribed note, the session is sent notifications/resources/updated, so its agent can re-read before it writes.
 * Its own writes are not announced. Bounded per session; all end with the session.
 */
import type { AgentActor } from "../../service/notes/actor";
import type { AgentNotes, NoteChange } from "../../service/notes/agent-notes";
import { noteUri } from "./uris";

export const DEFAULT_MAX_SUBSCRIPTIONS = 256;

export interface SubscriptionDeps {
	notes: AgentNotes;
	/** The session's actor: changes its own writes made are not announced to it. */
	actor: () => AgentActor;
	/** Sends notifications/resources/updated for `uri`. */
	send: (uri: string) => Promise<void>;
	max?: number;
	/** Whether a change was made by this subscriber itself (default: by the actor's own client, i.e. its session). */
	ownChange?: (change: NoteChange) => boolean;
}

export class NoteSubscriptions {
	/** Subscribed note → the revision the session last knew of it (at subscribing, or as last announced). */
	private readonly known = new Map<string, string | null>();
	private unsubscribe: (() => void) | null = null;
	private readonly max: number;

	constructor(private readonly deps: SubscriptionDeps) {
		this.max = deps.max ?? DEFAULT_MAX_SUBSCRIPTIONS;
	}

	/** False when the session already holds as many subscriptions as allowed (a repeat of one it holds is fine). */
	async add(path: string): Promise<boolean> {
		if (!this.known.has(path) && this.known.size >= this.max) return false;
		// Not a read (nothing is shown): only where to start telling changes apart.
		const now = await this.deps.notes.read(this.deps.actor(), path, { head: true });
		if (!this.known.has(path) && this.known.size >= this.max) return false;
		this.known.set(path, now.kind === "missing" ? null : now.revision);
		this.unsubscribe ??= this.deps.notes.onNoteChanged(
			this.deps.actor,
			(change) => this.changed(change),
			(changed) => this.known.has(changed),
		);
		return true;
	}

	remove(path: string): void {
		this.known.delete(path);
		if (this.known.size === 0) this.stop();
	}

	get size(): number {
		return this.known.size;
	}

	/** The session ended: no more notifications, nothing left listening. */
	close(): void {
		this.known.clear();
		this.stop();
	}

	private stop(): void {
		this.unsubscribe?.();
		this.unsubscribe = null;
	}

	private changed(change: NoteChange): void {
		if (!this.known.has(change.path)) return;
		const own = this.deps.ownChange
			? this.deps.ownChange(change)
			: change.by?.kind === "agent" && change.by.client !== undefined && change.by.client === this.deps.actor().client;
		const news = this.known.get(change.path) !== change.revision;
		this.known.set(change.path, change.revision);
		if (own || !news) return;
		this.deps.send(noteUri(change.path)).catch(() => undefined);
	}
}
