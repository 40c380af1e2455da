/**
 * The headless gateway: a plain folder on disk. Writes are atomic (temp + fsync + rename) under a per-path lock,
 * checked against the note's identity just before the rename; symlinks that lead outside the folder are never
 * followed; notes are exactly their bytes (strict UTF-8); a watcher reports edits made by other programs.
 */
import { isUtf8 } from "buffer";
import { promises as fs, statSync } from "fs";
import { basename, dirname, join } from "path";
import { createFileExclusive, replaceFileAtomic, type Replaced } from "./atomic-file";
import { FolderPaths } from "./folder-paths";
import { FolderWatcher } from "./folder-watcher";
import type {
	FolderEntry,
	MoveOutcome,
	MovePlan,
	MutationOutcome,
	MutationPlan,
	NoteScan,
	NoteSnapshot,
	NoteStat,
	VaultChange,
	VaultGateway,
} from "./gateway";
import { NoteEncodingError, NoteKeptChangingError, VaultPathError } from "./errors";
import {
	decodeNote,
	identityKeyOf,
	linksTo,
	readForDecision,
	releaseSeen,
	settledBefore,
	stillAsSeen,
	throwUnlessMissing,
	toStat,
	type SeenFile,
} from "./note-file";
import { NoteReadCache } from "./note-read-cache";
import { hasExtension, listFolderAt, listNotesUnder } from "./node-folder-listing";
import { CAN_CHECK_OPENED_FILE, readFileWithStat, readSmallFileNow, ScratchBuffer } from "./read-file";
import { revisionOf } from "../core/revision";
import { moveToTrash } from "./trash";
import { moveDurable, moveNoReplace } from "./node-move";
import { caseInsensitiveFolder } from "./case-probe";
import { NO_FOLLOW, ScanFolders } from "./scan-folder";
import { NewFolders, withFolders } from "./new-folders";

export class NodeFsGateway implements VaultGateway {
	private readonly paths: FolderPaths;
	private readonly watcher: FolderWatcher;
	/**
	 * Makes reads faster only: no write decision ever looks at it (see note-read-cache.ts). Used only while the
	 * watcher runs: every change it reports drops that note's entry, so a folder moved out of the vault (and a
	 * symlink left in its place) is read from disk again, where the opened file is checked.
	 */
	private readonly readCache = new NoteReadCache();
	private listeners = 0;
	/** The folder the start-up scan reads notes through (scanNow). */
	private readonly scanFolders: ScanFolders;
	/** What the start-up scan reads notes into, one after another, and how many it has read (scanNow). */
	private readonly scanScratch = new ScratchBuffer();
	private scans = 0;
	private stopForgetting: (() => void) | null = null;
	/** The folders writes, creates and moves make, fsynced into their parents before the change is acknowledged. */
	private readonly newFolders = new NewFolders();

	private constructor(
		/** The vault folder, as its real path. */
		readonly root: string,
		private readonly trashFolder: string,
		/** Where note writes put their temp files (absolute), or undefined for beside each note. */
		private readonly tempFolder: string | undefined,
	) {
		this.paths = new FolderPaths(root);
		this.watcher = new FolderWatcher(root);
		this.scanFolders = new ScanFolders(root, (path, real) => this.paths.assertInside(path, real));
	}

	/**
	 * `tempFolder` (vault-relative, hidden, so never watched nor served): where note writes put their temp files. A
	 * temp file beside its note made three watcher events per write (created, written, renamed away) besides the one
	 * of the rename into place; there it makes none. Without it, or when it cannot be made, temps go beside the note.
	 */
	static async open(folder: string, trashFolder = ".trash", tempFolder?: string): Promise<NodeFsGateway> {
		await fs.mkdir(folder, { recursive: true });
		const root = await fs.realpath(folder);
		let temps: string | undefined;
		if (tempFolder !== undefined) {
			temps = join(root, tempFolder);
			// Private like the state folder it sits in: temp files hold note text.
			if (
				!(await fs.mkdir(temps, { recursive: true, mode: 0o700 }).then(
					() => true,
					() => false,
				))
			)
				temps = undefined;
		}
		return new NodeFsGateway(root, trashFolder, temps);
	}

	async read(path: string): Promise<NoteSnapshot | null> {
		// On Linux the opened file itself is checked (see readAt); elsewhere the name is resolved first.
		const absolute = CAN_CHECK_OPENED_FILE ? join(this.root, path) : await this.paths.resolveExisting(path);
		if (absolute === null) return null;
		return (
			(this.stopForgetting !== null ? await this.readCache.lookup(path, absolute) : null) ?? this.readAt(path, absolute)
		);
	}

	async mutate<T>(path: string, decide: (current: string | null) => MutationPlan<T>): Promise<MutationOutcome<T>> {
		// Where the platform names the file a descriptor opened (Linux), every decision read checks the note it opened,
		// as reads do, so a note that is right where its name says needs no resolving beforehand (one lstat and one
		// realpath fewer per write). Anything else (a symlink, a note moved or deleted while it was opened, a new
		// note) is resolved by name, and the check before the rename then holds that name to what was read.
		const joined = join(this.root, path);
		const resolved = CAN_CHECK_OPENED_FILE ? null : await this.paths.resolveForWrite(path);
		const checkOpened = (real: string | null) => real !== null && this.paths.assertInside(path, real);
		for (let attempt = 1; ; attempt++) {
			const seen = await readForDecision(path, resolved ?? joined, resolved === null ? checkOpened : undefined);
			try {
				const target = resolved ?? (seen.realPath === joined ? joined : await this.paths.resolveForWrite(path));
				if (seen.content === null) await this.refuseNameVariant(path, target);
				const plan = decide(seen.content);
				// Another program may save the note while ours is being written or trashed: then nothing is replaced, and
				// the check runs again on what the note holds now (writers in this process are kept out by the guarded
				// writer's per-note lock).
				const unchanged = () => stillAsSeen(target, seen);
				if (plan.kind === "keep") return { result: plan.result, stat: null };
				if (plan.kind === "trash") {
					// Nothing to trash when the note is not there (the contract: as for the other gateways, a no-op).
					if (seen.bytes === null) return { result: plan.result, stat: null };
					// A delete removes the name `path`: a note that is a symbolic link goes to the trash as the link, for
					// moving what it points to would take another name's note away. The content read through the link is
					// still checked, and so is that the name is still the link to it, in the same step as the move.
					const entry = target === joined ? joined : await this.paths.resolveEntry(path);
					const stillCurrent = entry === target ? unchanged : () => unchanged() && linksTo(entry, target);
					const trashed = await moveToTrash(
						this.root,
						this.trashFolder,
						path,
						entry,
						seen.bytes,
						new Date(),
						stillCurrent,
					);
					if (trashed) {
						this.readCache.forget(path);
						return { result: plan.result, stat: null, durable: trashed.durable, trashedTo: trashed.trashedTo };
					}
				} else {
					const written = await this.replace(path, target, target === joined, seen, plan.content, unchanged);
					if (written) {
						this.readCache.forget(path);
						return { result: plan.result, stat: toStat(written.stats), durable: written.durable };
					}
				}
			} finally {
				releaseSeen(seen);
			}
			if (attempt >= DECIDE_ATTEMPTS) throw new NoteKeptChangingError(path, seen.content);
		}
	}

	/** The write of one attempt: the new content in place of the note `seen` read, or null when that did not happen. */
	private async replace(
		path: string,
		target: string,
		targetIsPath: boolean,
		seen: SeenFile,
		content: string,
		unchanged: () => boolean,
	): Promise<Replaced | null> {
		// A note that is there has its folder (one that vanished since is a failed write step, decided again); it may
		// hang on a folder another change just made, or one the disk failed to make durable (NewFolders.durableFor).
		const folders =
			seen.content === null ? (await this.mkdirFor(path, target)).durable : this.newFolders.durableFor(dirname(target));
		// Our own rename is announced to the watcher only where its event will name `path` (no symlink in the way):
		// `targetIsPath` says the target is the vault's root joined with `path`.
		const announce = targetIsPath ? () => this.watcher.expectOwnChange(path) : undefined;
		return replaceFileAtomic(target, content, { stillCurrent: unchanged, announce, tempFolder: this.tempFolder }).then(
			(replaced) =>
				replaced !== null && folders !== null
					? { ...replaced, durable: withFolders(replaced.durable, folders) }
					: replaced,
			(error: NodeJS.ErrnoException) => {
				if (error.code === "ENOENT" && seen.content !== null) return null;
				throw error;
			},
		);
	}

	/**
	 * A plain folder has no links to update: the note moves and nothing else changes. A note that is a symbolic link is
	 * not moved (moving the link could break it, and moving what it points to would move another name's note).
	 */
	async rename<T>(from: string, to: string, decide: (current: string | null) => MovePlan<T>): Promise<MoveOutcome<T>> {
		const source = await this.paths.resolveExisting(from);
		if (source === null) return { kind: "kept", result: decide(null).result };
		if ((await fs.lstat(join(this.root, from))).isSymbolicLink()) throw new VaultPathError(from, "symbolic-link");
		const target = await this.paths.resolveForWrite(to);
		for (let attempt = 1; ; attempt++) {
			const seen = await readForDecision(from, source);
			try {
				const plan = decide(seen.content);
				if (plan.kind === "keep" || seen.content === null || seen.bytes === null)
					return { kind: "kept", result: plan.result };
				const folders = await this.mkdirFor(to, target);
				await this.refuseNameVariant(to, target);
				const step = await moveNoReplace(source, target, seen.bytes, () => stillAsSeen(source, seen));
				if (step === "taken") return { kind: "destination-taken", result: plan.result };
				if (step === "moved") {
					this.readCache.forget(from);
					this.readCache.forget(to);
					const durable = withFolders(moveDurable(source, target), folders.durable);
					return { kind: "moved", result: plan.result, rewritten: [], durable };
				}
			} finally {
				releaseSeen(seen);
			}
			if (attempt >= DECIDE_ATTEMPTS) throw new NoteKeptChangingError(from, seen.content);
		}
	}

	async createExclusive(path: string, content: string): Promise<boolean> {
		const absolute = await this.paths.resolveForWrite(path);
		const folders = await this.mkdirFor(path, absolute);
		// Our own .bak notes are not reported back to us as another program's (see FolderWatcher.expectOwnChange),
		// where the event will name `path` (no symlink in the way).
		const created = await createFileExclusive(
			absolute,
			content,
			absolute === join(this.root, path) ? () => this.watcher.expectOwnChange(path) : undefined,
			this.tempFolder,
		);
		// As for the file's own name: a kept copy whose folder a crash could take away is not kept.
		if (created) await folders.durable;
		return created;
	}

	async list(folder: string): Promise<FolderEntry[] | null> {
		const absolute = await this.paths.resolveExisting(folder);
		return absolute === null ? null : listFolderAt(absolute, folder);
	}

	async listNotes(extensions: readonly string[], options: { watched?: boolean } = {}): Promise<string[]> {
		const known = options.watched ? await this.knownNotes(extensions) : null;
		return known ?? listNotesUnder(this.root, extensions);
	}

	/**
	 * The notes the running watcher listed as it started (its tree, kept current by its events); null while no watcher
	 * runs. A start-up's reconcile asks just after the watcher started: the vault is not listed twice.
	 */
	async knownNotes(extensions: readonly string[]): Promise<string[] | null> {
		const files = this.listeners > 0 ? await this.watcher.regularFiles() : null;
		return files === null ? null : files.filter((path) => hasExtension(path, extensions));
	}

	async identity(path: string): Promise<string | null> {
		// A direct stat (a few microseconds) rather than a round trip through the thread pool: a start-up asks this of
		// every note, and the pool's round trip was most of that start's cost.
		const stats = statSync(join(this.root, path), { bigint: true, throwIfNoEntry: false });
		return stats?.isFile() ? identityKeyOf(stats) : null;
	}

	scanNow(path: string, recorded: string | undefined): NoteScan | undefined {
		// Elsewhere than Linux the name is resolved before a read (asynchronously): those notes are for `read`.
		if (!CAN_CHECK_OPENED_FILE) return undefined;
		// Joined by hand: `path` is a listed note's (nothing to normalize), and path.join cost more than a stat here.
		const absolute = `${this.root}/${path}`;
		if (recorded !== undefined) {
			const stats = statSync(absolute, { bigint: true, throwIfNoEntry: false });
			if (stats?.isFile() && identityKeyOf(stats) === recorded) return { kind: "unchanged" };
		}
		const readAtNs = BigInt(Date.now()) * 1_000_000n;
		// The bytes are read into the scan's scratch buffer, over the last scan's: a text asked of an earlier scan after
		// this one is refused, never decoded from another note's bytes.
		const scan = ++this.scans;
		let unnamed = false;
		let read;
		try {
			// Through its folder, checked once for all its notes (scan-folder.ts); else the opened file is checked.
			const throughFolder = this.scanFolders.pathFor(path);
			read =
				throughFolder !== null
					? readSmallFileNow(throughFolder, null, NO_FOLLOW, this.scanScratch)
					: readSmallFileNow(absolute, (real) => {
							if (real !== null) this.paths.assertInside(path, real);
							else unnamed = true;
						});
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOTDIR") return { kind: "missing" };
			// A note that is a symbolic link (not followed through its folder): the ordinary read follows it and checks it.
			if (code === "ELOOP") return undefined;
			throwUnlessMissing(path, error);
			return { kind: "missing" };
		}
		if (read === undefined || unnamed) return undefined;
		if (read === null) return { kind: "missing" };
		const settled = settledBefore(read.stats, readAtNs) && read.stats.ino !== 0n;
		// Checked now, as a read would be (a note that is not UTF-8 fails the same way); decoded only if asked.
		if (!isUtf8(read.bytes)) throw new NoteEncodingError(path);
		const bytes = read.bytes;
		return {
			kind: "read",
			path,
			stat: toStat(read.stats),
			...(settled ? { identity: identityKeyOf(read.stats) } : {}),
			// Hashed from the bytes themselves: the text decoded from them is these bytes exactly (strict UTF-8, BOM kept).
			revision: revisionOf(bytes),
			text: () => {
				if (scan !== this.scans) throw new Error(`the scan of ${path} is over: its text is no longer at hand`);
				return decodeNote(path, bytes);
			},
		};
	}

	async stat(path: string): Promise<NoteStat | null> {
		const absolute = await this.paths.resolveExisting(path);
		if (absolute === null) return null;
		return toStat(await fs.stat(absolute));
	}

	onChange(listener: (change: VaultChange) => void): () => void {
		// The cache's own listener comes first, so no listener can be handed a dropped entry while an event is told.
		this.stopForgetting ??= this.watcher.subscribe((change) => {
			this.readCache.forget(change.path);
			if (change.type === "rename") this.readCache.forget(change.oldPath);
		});
		const unsubscribe = this.watcher.subscribe(listener);
		this.listeners++;
		let subscribed = true;
		return () => {
			if (!subscribed) return;
			subscribed = false;
			unsubscribe();
			if (--this.listeners > 0) return;
			this.stopForgetting?.();
			this.stopForgetting = null;
			this.readCache.clear();
		};
	}

	caseInsensitive(): Promise<boolean> {
		return caseInsensitiveFolder(this.root);
	}

	async throughLink(path: string): Promise<boolean> {
		return this.paths.throughLink(path);
	}

	/** A plain folder has no editor, so no note is ever active. */
	async activeNote(): Promise<string | null> {
		return null;
	}

	endScan(): void {
		this.scanFolders.release();
	}

	close(): Promise<void> {
		this.scanFolders.release();
		return this.watcher.close();
	}

	/** Resolves once the watcher is ready (tests wait on it so early edits are not missed). */
	watching(): Promise<void> {
		return this.watcher.watching();
	}

	private async readAt(path: string, absolute: string): Promise<NoteSnapshot | null> {
		const readAtNs = BigInt(Date.now()) * 1_000_000n;
		// Set when this platform could not name the opened file after all (no /proc): the name is resolved instead.
		let unnamed = false;
		let read;
		try {
			// One descriptor for stat and content, so they describe the same file.
			read = await readFileWithStat(absolute, (real) => {
				if (real !== null) this.paths.assertInside(path, real);
				else unnamed = CAN_CHECK_OPENED_FILE;
			});
		} catch (error) {
			// A parent that is a file (ENOTDIR) means there is no such note, as for a missing one.
			if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
			throwUnlessMissing(path, error);
			return null;
		}
		if (read === null) return null;
		if (unnamed && (await this.paths.resolveExisting(path)) === null) return null;
		const settled = settledBefore(read.stats, readAtNs) && read.stats.ino !== 0n;
		const snapshot: NoteSnapshot = {
			path,
			content: decodeNote(path, read.bytes),
			stat: toStat(read.stats),
			...(settled ? { identity: identityKeyOf(read.stats) } : {}),
		};
		if (this.stopForgetting !== null) this.readCache.keep(snapshot, read.stats, settled);
		return snapshot;
	}

	/** Makes the folder of `absolute` (the note at `path`); resolves with its new folders' durability (NewFolders). */
	private async mkdirFor(path: string, absolute: string): Promise<{ durable: Promise<void> }> {
		try {
			return await this.newFolders.make(dirname(absolute));
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOTDIR" || code === "EEXIST") throw new VaultPathError(path, "file-in-the-way");
			throw error;
		}
	}

	/** A new note may not stand beside one whose name differs only in Unicode normalization (NFC against NFD). */
	private async refuseNameVariant(path: string, absolute: string): Promise<void> {
		const name = basename(absolute);
		const normalized = name.normalize("NFC");
		const siblings = await fs.readdir(dirname(absolute)).catch(() => [] as string[]);
		const variant = siblings.find((sibling) => sibling !== name && sibling.normalize("NFC") === normalized);
		if (variant !== undefined)
			throw new VaultPathError(path, "name-variant", path.slice(0, path.length - name.length) + variant);
	}
}

/** How often a write is decided again because another program kept changing the note under it. */
const DECIDE_ATTEMPTS = 20;
