/**
 * Folders a write, a create or a move makes on its way to a new note. A new folder is an entry of its parent: until
 * that parent is fsynced a crash can take the folder away, and every note in it with it, however durable the note's
 * own rename. So the parents of every folder made are fsynced before the change is acknowledged. A folder another
 * change made a moment ago (its fsync still under way) is awaited too, by any change into it (a write of a note
 * already there included): this change's note hangs on it as well.
 */
import { promises as fs } from "fs";
import { dirname } from "path";
import { fsyncFoldersLater } from "./atomic-file";

export class NewFolders {
	/** Folders made whose entries are not yet known to be on disk, with the fsync that makes them so. */
	private readonly pending = new Map<string, Promise<void>>();
	/** Folders made whose entries the disk failed to make durable: fsynced again by the next change that goes into one. */
	private readonly unsure = new Set<string>();
	/**
	 * Makes whose mkdir is under way, each resolved once it has said what it made (its fsyncs pending): mkdir finds a
	 * folder another make just made already there, before that make can say so.
	 */
	private readonly making = new Set<Promise<void>>();

	/**
	 * Makes `folder` and its missing parents (rejecting as mkdir does; `mode` as mkdir's). Resolves, once made, with `durable`: every
	 * folder entry on the way not yet known to be on disk, made so; resolved at once where there is none, as for
	 * folders that were there all along (the common case: no fsync at all). The caller fsyncs `folder` itself, with its
	 * note's entry. `durable` rejects when the disk fails to make an entry durable; it is marked handled, and the caller
	 * awaits it before acknowledging. (Wrapped: a promise resolved with a promise would wait for it.)
	 */
	async make(folder: string, mode?: number): Promise<{ durable: Promise<void> }> {
		let registered!: () => void;
		const registering = new Promise<void>((resolve) => (registered = resolve));
		this.making.add(registering);
		try {
			const first = await fs.mkdir(folder, { recursive: true, ...(mode !== undefined ? { mode } : {}) });
			// From the first folder mkdir made down to `folder`.
			if (first !== undefined) this.fsyncParents(chainBetween(first, folder) ?? [first]);
		} finally {
			this.making.delete(registering);
			registered();
		}
		return { durable: this.durableFor(folder) ?? Promise.resolve() };
	}

	/**
	 * For a change into `folder` that makes no folder (a write of a note that is there): the folder entries on its way
	 * not yet known to be on disk, made so, as `make`'s `durable`; null when there is none (the common case: no
	 * promise at all). A note written into a folder another change just made hangs on that folder's entry too.
	 */
	durableFor(folder: string): Promise<void> | null {
		if (this.pending.size === 0 && this.unsure.size === 0 && this.making.size === 0) return null;
		const now = this.durableOnTheWay(folder);
		if (this.making.size === 0) return now;
		// A make still under way may have made a folder on our way (mkdir found it there) without its fsync pending yet:
		// looked for again once each has said what it made (at once after its mkdir answers).
		const later = Promise.all(this.making).then(() => this.durableOnTheWay(folder));
		return withFolders(now, later);
	}

	/**
	 * Every folder entry on the way to `folder` not yet known to be on disk, made so: pending fsyncs awaited, and the
	 * entries the disk failed before fsynced again.
	 */
	private durableOnTheWay(folder: string): Promise<void> {
		if (this.unsure.size > 0) {
			const again = onTheWay(folder).filter((at) => this.unsure.has(at));
			if (again.length > 0) this.fsyncParents(again);
		}
		return this.pending.size === 0 ? Promise.resolve() : this.awaitedOnTheWay(folder);
	}

	private fsyncParents(made: string[]): void {
		for (const at of made) this.unsure.delete(at);
		const durable = fsyncFoldersLater(...made.map((at) => dirname(at)));
		for (const at of made) this.pending.set(at, durable);
		const forget = () => {
			for (const at of made) if (this.pending.get(at) === durable) this.pending.delete(at);
		};
		durable.then(forget, () => {
			forget();
			for (const at of made) this.unsure.add(at);
		});
	}

	private awaitedOnTheWay(folder: string): Promise<void> {
		const waits = onTheWay(folder).flatMap((at) => this.pending.get(at) ?? []);
		const all = Promise.all(waits).then(() => undefined);
		all.catch(() => undefined);
		return all;
	}
}

/**
 * Makes `folder` and its missing parents, and resolves once each is on disk (its parent fsynced); rejects when the
 * disk fails that. For a folder a host is about to serve: every note later written into it hangs on its entry.
 */
export async function makeFolderDurably(folder: string): Promise<void> {
	await (
		await new NewFolders().make(folder)
	).durable;
}

/**
 * `root` and every folder under it down to `folder` (inside it): each holds the entry of the next. For a change that
 * fsyncs the whole way, not only the folders it made (the trash, start-up recovery: rare, and never in a hurry).
 */
export function foldersDownTo(root: string, folder: string): string[] {
	return chainBetween(root, folder) ?? [folder];
}

/** `folder` and the folders above it up to `top`, `top` included; null when `top` is not one of them. */
function chainBetween(top: string, folder: string): string[] | null {
	const folders = onTheWay(folder);
	const end = folders.indexOf(top);
	return end === -1 ? null : folders.slice(0, end + 1);
}

/** `folder` and every folder above it. */
function onTheWay(folder: string): string[] {
	const folders = [folder];
	for (let at = folder; dirname(at) !== at; at = dirname(at)) folders.push(dirname(at));
	return folders;
}

/** A change's own durability together with its new folders': rejects when either does (marked handled, as both are). */
export function withFolders(durable: Promise<void>, folders: Promise<void>): Promise<void> {
	const both = Promise.all([durable, folders]).then(() => undefined);
	both.catch(() => undefined);
	return both;
}
