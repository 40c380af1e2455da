/**
 * The one narrow door to the vault. Everything above this line (services, HTTP, UI) talks to a VaultGateway and
 * never knows whether it is Obsidian or a plain folder. Paths are vault-relative and already validated.
 */
import type { SearchHost } from "./search-host";

export interface NoteStat {
	ctime: number;
	mtime: number;
	size: number;
}

export interface NoteSnapshot {
	path: string;
	content: string;
	stat: NoteStat;
	/**
	 * The file's identity key (see VaultGateway.identity) when the content was read from a file that had settled (its
	 * last change long enough before the read for any later change to show in its stat); absent otherwise.
	 */
	identity?: string;
}

/**
 * A note read at once (VaultGateway.scanNow): what `read` gives, with the revision of exactly the bytes read and its
 * text decoded only when asked for (most notes a start-up reads are only hashed), before the next scanNow call: the
 * gateway may read the next note into the same memory (asked later, `text` throws).
 */
export interface ScannedNote extends Omit<NoteSnapshot, "content"> {
	revision: string;
	text(): string;
}

/** What VaultGateway.scanNow saw of a note. */
export type NoteScan = { kind: "unchanged" } | { kind: "missing" } | ({ kind: "read" } & ScannedNote);

export interface FolderEntry {
	/** Vault-relative path; folders end in "/". */
	path: string;
	type: "file" | "folder";
	stat?: NoteStat;
}

/** What a decide callback wants done with the note it was shown. */
export type MutationPlan<T> =
	{ kind: "keep"; result: T } | { kind: "write"; content: string; result: T } | { kind: "trash"; result: T };

export interface MutationOutcome<T> {
	result: T;
	/** The stat after a write, null when nothing was written or the note was trashed. */
	stat: NoteStat | null;
	/**
	 * Present when the change is in place but its last step toward the disk is still under way (the headless host's
	 * folder fsync after the rename). Resolves once a crash can no longer undo the change; rejects when the disk
	 * reported a failure making it durable (the change is in place all the same: never acknowledged as durable). The caller
	 * releases the note's lock first, so the next write of the note need not wait on the disk for this one, and
	 * acknowledges the write only after this. A note moved to the trash has one too on the headless host (its old folder
	 * and the trash's, fsynced); inside Obsidian a delete goes through Obsidian's own trash, as durable as Obsidian
	 * makes it, and has none.
	 */
	durable?: Promise<void>;
	/** Where the trash put the note (vault-relative), when the gateway chose the place (the headless host). */
	trashedTo?: string;
}

/** What a move's decide callback wants done with the note it was shown. */
export type MovePlan<T> = { kind: "keep"; result: T } | { kind: "move"; result: T };

/** A note whose text changed because another note moved (Obsidian rewriting links to it), with its text before and after. */
export interface RewrittenNote {
	/** Where the note is now (for the moved note itself, its new path). */
	path: string;
	before: string;
	after: string;
}

export type MoveOutcome<T> =
	/** Nothing moved: `decide` said keep (or was shown no note). */
	| { kind: "kept"; result: T }
	/** Something (a note, a folder, any file the disk takes for that name) is at the destination: nothing moved. */
	| { kind: "destination-taken"; result: T }
	| {
			kind: "moved";
			result: T;
			/**
			 * The notes whose text the move changed besides moving it: those Obsidian rewrote links in, the moved note
			 * included when its own links were rewritten. Empty headless.
			 */
			rewritten: RewrittenNote[];
			/** As MutationOutcome's: the move is in place, its last step toward the disk may still be under way. */
			durable?: Promise<void>;
	  };

export type VaultChange =
	{ type: "create" | "modify" | "delete"; path: string } | { type: "rename"; path: string; oldPath: string };

/**
 * Another program's save that landed on a note while its open editor held unsaved typing that the save overlaps, so
 * the two cannot be folded together: the editor keeps the typing (its autosave writes it), and the program's text
 * must be kept elsewhere (vault/obsidian-editor-fold.ts finds these; service/revisions/outside-over-typing.ts keeps them).
 */
export interface OutsideOverTyping {
	path: string;
	/** What the file held before the program's save, as last seen; null when that was not known. */
	before: string | null;
	/** The editor's text when the save landed: what its autosave writes. */
	typed: string;
	/** What the program saved. */
	written: string;
}

/** Where the editor fold hands what it cannot fold. */
export interface OutsideSaveKeeper {
	/** Keeps an overlapping save (a .bak, a conflict, a notice); resolves once kept. */
	keep(save: OutsideOverTyping): Promise<void>;
	/** Something failed along the way (reported; the editor is left as it was). */
	onError(error: unknown): void;
}

export interface VaultGateway {
	/** Reads a note as it is now: for a note open in an editor, what the editor holds, unsaved typing included. */
	read(path: string): Promise<NoteSnapshot | null>;

	/**
	 * Atomic read-check-write. `decide` is shown the note as it is (null if missing) and runs synchronously inside
	 * the write step, so nothing can change the note between the check and the write. Creating parent folders is
	 * part of a write. If another program changes the note before the write lands, `decide` is shown the note again
	 * and only its last plan is carried out. Calls for one note are serialized by the guarded writer (the one owner
	 * of the per-note lock); the gateway keeps each write atomic against everything else.
	 */
	mutate<T>(path: string, decide: (current: string | null) => MutationPlan<T>): Promise<MutationOutcome<T>>;

	/**
	 * Moves the note at `from` to `to`, where nothing may be: a taken destination is never replaced (and never
	 * trashed: replacing one is the caller's guarded delete first). `decide` is shown the note as it is (null when
	 * missing) and runs in the step that moves it, so the note moved is the one decided on; if another program changes
	 * it first, `decide` is shown it again. Creating the destination's folders is part of the move. Inside Obsidian the
	 * move goes through its file manager, so links to the note are updated as the person's settings say; the notes that
	 * changed so come back in `rewritten`. Calls are serialized by the guarded writer (it holds both paths' locks).
	 */
	rename<T>(from: string, to: string, decide: (current: string | null) => MovePlan<T>): Promise<MoveOutcome<T>>;

	/** Creates a new note and never overwrites: resolves false if something is already at `path`. */
	createExclusive(path: string, content: string): Promise<boolean>;

	/** Immediate children of a folder ("" is the vault root), hidden entries excluded. */
	list(folder: string): Promise<FolderEntry[] | null>;

	/**
	 * Every note path in the vault with one of the given extensions, hidden folders excluded. `watched`: the listing
	 * the gateway's running watcher made when it started, kept current by its events, is good enough (a start-up's
	 * reconcile, once tracking began: a note changed since is told by its own event), so the vault is not listed twice.
	 * Never for answering a request, which must see a change the moment it is made.
	 */
	listNotes(extensions: readonly string[], options?: { watched?: boolean }): Promise<string[]>;

	stat(path: string): Promise<NoteStat | null>;

	/**
	 * Subscribes to changes other programs make, and to our own deletes. Our own writes and creates may be reported
	 * too (Obsidian reports everything) or not (the Node folder's watcher leaves out what it wrote itself): the writer
	 * records what it wrote, so nothing may depend on hearing them. Returns an unsubscribe function.
	 */
	onChange(listener: (change: VaultChange) => void): () => void;

	/**
	 * The path of the file open in the active editor, or null when there is none (a plain folder never has one).
	 * Optional so that wrappers which only forward writes need not know about editors; absent means null.
	 */
	activeNote?(): Promise<string | null>;

	/**
	 * Whether the vault's disk takes `A.md` and `a.md` for one file, asked once when the guard opens (key scopes match
	 * without regard to case there). Absent: case-sensitive.
	 */
	caseInsensitive?(): Promise<boolean>;

	/**
	 * Whether `path` reaches its file or folder through a symbolic link (one of its parts that exists is a link), so
	 * the name does not say where the bytes are: key scopes match names. Absent: no path does.
	 */
	throughLink?(path: string): Promise<boolean>;
	/**
	 * The note is open where the person types (Obsidian's editors): a change to it may be their own save, so it is not
	 * taken for another program's unless it dropped someone's edit (outside-saves.ts). Absent: nobody types here.
	 */
	openInEditor?(path: string): boolean;
	/**
	 * The note's identity now, from a stat alone (null: no such note): a key that any change to the file changes, equal
	 * to a snapshot's `identity` exactly while the file is unchanged since that read. Absent: the gateway cannot tell,
	 * and every start-up reads every note.
	 */
	identity?(path: string): Promise<string | null>;
	/**
	 * The start-up reconcile's look at one note, done at once (no turn of the event loop, no read cache; the caller
	 * paces itself): "unchanged" while the file's identity is still `recorded`, else the note as `read` gives it with
	 * the revision of exactly the bytes it was decoded from. Undefined: this note is for `read` (too large to read at
	 * once), or, when the method is absent, every note is.
	 */
	scanNow?(path: string, recorded: string | undefined): NoteScan | undefined;
	/** A run of scanNow calls is over: what it held open (a folder, scan-folder.ts) is let go. */
	endScan?(): void;

	/** Obsidian's search and metadata (vault/search-host.ts); absent for a plain folder, which search parses itself. */
	readonly search?: SearchHost;

	/**
	 * Inside Obsidian: another program's save to a note open in an editor with unsaved typing is folded into the editor
	 * (so its autosave writes both); a save that overlaps the typing goes to `keeper`. Returns the function that stops
	 * it. Absent for a plain folder, which has no editors.
	 */
	foldOutsideSaves?(keeper: OutsideSaveKeeper): () => void;
}

/** Small files the plugin keeps for itself (state, bases): the plugin folder in Obsidian, a dot-folder headless. */
export interface StateStorage {
	/** `durable: false`: the file was written with `durable: false` (a cache), so there is no saved copy to look for. */
	read(name: string, options?: { durable?: boolean }): Promise<string | null>;
	/**
	 * Reads the file line by line (lines end with "\n"), handing each to `line`, which returns false to stop. False
	 * when there is no such file; rejects when a line is too long to hand over. Absent: only `read`.
	 */
	readLines?(name: string, line: (text: string) => boolean): Promise<boolean>;
	/**
	 * Replaces the file as a whole. `durable: false` skips fsync (and may write in place), for caches whose readers
	 * verify what they read (the content-addressed bases); everything else is made durable before the promise resolves.
	 */
	write(name: string, content: string, options?: { durable?: boolean }): Promise<void>;
	/**
	 * Adds `text` at the end of the file (creating it), durably before the promise resolves. A crash mid-append may
	 * leave part of `text` at the end, never anything else changed.
	 */
	append(name: string, text: string): Promise<void>;
	remove(name: string): Promise<void>;
	/** Makes an existing file readable by this user only, where the platform has such a thing. */
	restrict?(name: string): Promise<void>;
	/**
	 * Called once nothing more will be saved through it (the guard closed, or failed to open). In Obsidian it hands
	 * the plugin folder on to the next instance of the plugin, which waits for this before it reads the state.
	 */
	close?(): Promise<void>;
}
