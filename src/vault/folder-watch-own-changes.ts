/**
 * Our own changes, announced to the folder watcher so their events are not reported back to us (see
 * WatchSession.expectOwnChange). Each announcement spends exactly one event, and only where that event is sure to
 * come; one that is withdrawn after an event was taken for it makes the watcher look at the path after all.
 */
import { parentOf, type KnownTree } from "./folder-watcher-tree";

/** How long an announced change of our own waits for its event (a rename's event comes within milliseconds). */
const OWN_CHANGE_MS = 2000;

/** An announced change of ours: when it lapses, and whether an event was taken for it (and the tree changed so). */
interface OwnChange {
	until: number;
	spent: null | "known" | "added";
}

export interface OwnChangesHost {
	tree(): KnownTree | null;
	/** Whether a change in `folder` is sure to make an event of its own (a watcher per folder, live, not polled). */
	eventSure(folder: string): boolean;
	/** Looks at `path` as for any other event. */
	look(path: string): void;
}

export class OwnChanges {
	/** Announced in the last OWN_CHANGE_MS. */
	private readonly announced = new Map<string, OwnChange>();

	constructor(private readonly host: OwnChangesHost) {}

	/** Announces our next change to `path`; returns the function that withdraws it if the change did not happen. */
	expect(path: string): () => void {
		if (!this.host.eventSure(parentOf(path))) return () => undefined;
		const now = Date.now();
		if (this.announced.size > 256)
			for (const [each, { until }] of this.announced) if (until < now) this.announced.delete(each);
		const expected: OwnChange = { until: now + OWN_CHANGE_MS, spent: null };
		this.announced.set(path, expected);
		return () => {
			if (this.announced.get(path) !== expected) return;
			this.announced.delete(path);
			if (expected.spent === null) return;
			// An event was taken for ours, but ours never happened: it was another program's. Undo and look after all.
			if (expected.spent === "added") this.host.tree()?.remove(path);
			this.host.look(path);
		};
	}

	/** Whether the event for `path` was ours: then it is spent and recorded in the tree, with no look. */
	take(path: string): boolean {
		const own = this.announced.get(path);
		if (own === undefined || own.spent !== null || own.until < Date.now()) return false;
		own.spent = this.record(path);
		return own.spent !== null;
	}

	/** Announcements in `folder` and below are dropped: their events may never come (the folder lost its watcher). */
	drop(folder: string): void {
		const prefix = folder === "" ? "" : folder + "/";
		for (const path of this.announced.keys()) if (path.startsWith(prefix)) this.announced.delete(path);
	}

	/** Records our own change in the tree without looking; null when the tree cannot tell (then it is looked at). */
	private record(path: string): OwnChange["spent"] {
		const tree = this.host.tree();
		if (tree === null || !tree.hasFolder(parentOf(path))) return null;
		const known = tree.kindOf(path);
		if (known === "file") return "known";
		return known === undefined && tree.addFile(path) ? "added" : null;
	}
}
