/**
 * Assembles the services around one vault gateway: history, bases, conflicts, the tracker and the guarded writer.
 * The Obsidian plugin, the headless host and the tests all build the same thing through `openRevisionGuard`.
 */
import { BaseStore, type BlobStorage } from "../service/stores/base-store";
import { ReadLedger } from "../service/stores/read-ledger";
import { ConflictLog } from "../service/stores/conflict-log";
import { ProposalLog } from "../service/stores/proposal-log";
import { validateVaultPath, type PathPolicy } from "../core/path";
import { type RevisionSource } from "../core/revision-history";
import { RevisionHistory } from "../service/stores/revision-history";
import { yieldVia, type YieldToHost } from "../core/steps";
import type { Timers } from "../core/timers";
import type { RevisionGuardSettings } from "../settings";
import type { StateStorage, VaultGateway } from "../vault/gateway";
import type { HostWorkspace } from "../vault/workspace";
import { AgentNotes, type HostKind } from "../service/notes/agent-notes";
import { ConflictResolver } from "../service/conflicts/conflict-resolver";
import { ConflictWaits } from "../service/conflicts/conflict-waits";
import { DiffPages } from "../service/history/diff-pages";
import { GuardedWriter } from "../service/write/guarded-writer";
import { blobStorage, loadState, PROPOSAL_FILES, StatePersistence } from "../service/revisions/persistence";
import { ConflictJournal } from "../service/conflicts/conflict-journal";
import { BackupNames } from "../service/write/backup-names";
import { OutsideSaves } from "../service/revisions/outside-saves";
import { PersonNotes } from "../service/notes/person-notes";
import { ProposalStore } from "../service/proposals/proposal-store";
import { RevisionTracker } from "../service/revisions/revision-tracker";
import { NoteHistoryService } from "../service/history/note-history";
import { AgentActivity } from "../service/history/agent-activity";
import type { NoteIndex } from "../vault/note-index";
import { ParsedNoteIndex } from "../service/search/parsed-note-index";
import type { ProposalSink } from "../service/proposals/proposal-sink";
import { keepOutsideOverTyping } from "../service/revisions/outside-over-typing";
import { StartupReadiness } from "../service/revisions/startup-readiness";

export interface RevisionGuardOptions {
	gateway: VaultGateway;
	storage: StateStorage;
	/** Where merge bases are kept; by default one file each in `storage`. */
	blobs?: BlobStorage;
	settings: () => RevisionGuardSettings;
	/** The vault's config folder, never served. */
	configDir: string;
	/** The vault's name, as `GET /` tells it (so a person with two vaults sees which one holds a port). */
	vaultName?: string;
	/** Obsidian's version (its apiVersion), as `GET /` tells it; left out headless. */
	appVersion?: string;
	/** Folders of our own inside the vault that are never served (the headless state folder). */
	privateFolders?: string[];
	now?: () => number;
	/** The window's timers inside Obsidian, Node's elsewhere. */
	timers: Timers;
	/** Who we credit for changes we did not make ("user" inside Obsidian, "external" for a plain folder). */
	changeSource?: RevisionSource;
	/**
	 * Which host serves the vault, so answers speak of what it has (Obsidian's merge view and settings, or the headless
	 * host's command line). By default Obsidian when changes are credited to its user, else a plain folder.
	 */
	host?: HostKind;
	coalesceMs?: number;
	persistDebounceMs?: number;
	/** Unexpected errors in bookkeeping that must not fail the request they happened in. */
	onError?: (error: unknown) => void;
	/** How long diffs and merges give the host a turn; by default a zero-delay timer. */
	yieldToHost?: YieldToHost;
	/**
	 * Tags, links and rendering (Obsidian's own inside Obsidian); by default parsed from the notes, without rendering
	 * (the headless host hands in its markdown renderer).
	 */
	noteIndex?: NoteIndex;
	/** Obsidian's commands, panes and periodic-notes settings (absent headless). */
	workspace?: HostWorkspace;
	/**
	 * Where changes a key may only propose go (issue 24). Absent: the host's own proposal store. Null: this host takes
	 * none, and they are refused (tests of that refusal).
	 */
	proposals?: ProposalSink | null;
}

export interface RevisionGuard {
	/** What agents' entry points (REST, MCP) are given: operations, never the parts below. */
	readonly notes: AgentNotes;
	readonly gateway: VaultGateway;
	readonly history: RevisionHistory;
	readonly bases: BaseStore;
	readonly conflicts: ConflictLog;
	readonly tracker: RevisionTracker;
	readonly writer: GuardedWriter;
	readonly resolver: ConflictResolver;
	/** Note history and Restore (the person's view of history; agents reach it through `notes`). */
	readonly noteHistory: NoteHistoryService;
	/** Recent agent writes and Revert. */
	readonly activity: AgentActivity;
	/** What each client last read of each note (implicit tokens). */
	readonly reads: ReadLedger;
	readonly timers: Timers;
	/** Long-polls on conflicts and proposals, bounded per caller and in all. */
	readonly waits: ConflictWaits;
	/** Changes agents may only propose: where they wait for the person (the ProposalSink). */
	readonly proposals: ProposalStore;
	/** What the person does (the UI's only way in): resolve, restore, revert, review proposals, follow changes. */
	readonly person: PersonNotes;
	/** The net under saves made straight to the files (outside-saves.ts). */
	readonly outsideSaves: OutsideSaves;
	/** Diffs for agents: computed in slices, a few at once, paged. */
	readonly diffs: DiffPages;
	readonly persistence: StatePersistence;
	/** Whether the start-up reconcile is done (a host marks it; see startup-readiness.ts). */
	readonly readiness: StartupReadiness;
	readonly settings: () => RevisionGuardSettings;
	readonly now: () => number;
	readonly vaultName: string;
	pathPolicy(): PathPolicy;
	/** Flushes pending tracking and state to storage, stops listening and closes the storage (once; a second call waits for the first). */
	close(): Promise<void>;
}

const MB = 1024 * 1024;

export async function openRevisionGuard(options: RevisionGuardOptions): Promise<RevisionGuard> {
	try {
		return await assemble(options);
	} catch (error) {
		// Nothing will be saved: the storage is free for the next instance (in Obsidian, the next plugin instance).
		await options.storage.close?.().catch(() => undefined);
		throw error;
	}
}

async function assemble(options: RevisionGuardOptions): Promise<RevisionGuard> {
	const { gateway, storage, settings } = options;
	const now = options.now ?? Date.now;
	const loaded = await loadState(storage);
	const history = RevisionHistory.fromSnapshot(loaded.history);
	const conflicts = ConflictLog.fromSnapshot(loaded.conflicts.snapshot);
	conflicts.replay(loaded.conflicts.changes);
	const blobs = options.blobs ?? blobStorage(storage);
	const bases = new BaseStore(blobs, settings().baseStoreCapMB * MB);
	bases.load(loaded.bases);
	// Bases the saved index no longer lists are unreachable: a storage that keeps them (the pack) frees their space.
	await blobs.retainOnly?.((key) => bases.has(key)).catch((error: unknown) => options.onError?.(error));
	const persistence = new StatePersistence(
		storage,
		() => ({ history: history.toSnapshot(), bases: bases.toSnapshot() }),
		() => conflicts.toSnapshot(),
		options.timers,
		// A save appends only what changed since the last one (history-journal.ts).
		() => ({ ...history.takeChanges(), bases: bases.takeIndexChanges() }),
		loaded.journal,
		options.persistDebounceMs,
		loaded.conflicts,
		options.onError,
	);
	// A log left by the last run is folded into the snapshot now (a failure leaves it to the first commit).
	if (loaded.conflicts.logged) await persistence.compactConflicts().catch((error: unknown) => options.onError?.(error));
	// The one place conflict records are saved: each change is appended as it happens.
	conflicts.onSave((change) => persistence.saveConflictChange(change));
	// Proposals are journaled the same way, in files of their own.
	const proposalLog = ProposalLog.fromSnapshot(loaded.proposals.snapshot);
	proposalLog.replay(loaded.proposals.changes);
	const proposalJournal = new ConflictJournal(
		storage,
		() => proposalLog.toSnapshot(),
		loaded.proposals,
		PROPOSAL_FILES,
	);
	if (loaded.proposals.logged) await proposalJournal.compact().catch((error: unknown) => options.onError?.(error));
	proposalLog.onSave((change) => proposalJournal.record(change));

	const pathPolicy = (): PathPolicy => ({
		configDir: options.configDir,
		noteExtensions: settings().noteExtensions,
		deniedFolders: options.privateFolders ?? [],
	});
	const isNote = (path: string) => validateVaultPath(path, pathPolicy(), "note").ok;

	// Built once the writer is: the tracker hands it every save made outside our door (outside-saves.ts).
	let outsideSaves: OutsideSaves | null = null;
	const tracker = new RevisionTracker({
		gateway,
		history,
		bases,
		conflicts,
		onMoved: (from, to) => proposalLog.rename(from, to),
		now,
		timers: options.timers,
		isNote,
		noteExtensions: () => settings().noteExtensions,
		onDirty: () => persistence.markDirty(),
		onObserved: (observed) => outsideSaves?.observed(observed),
		onRecent: (path, revision, content) => outsideSaves?.recent(path, revision, content),
		coalesceMs: options.coalesceMs,
		changeSource: options.changeSource,
		yieldToHost: options.yieldToHost,
	});
	const reads = new ReadLedger(settings().readLedgerCap);
	const yieldToHost = options.yieldToHost ?? yieldVia(options.timers);
	const diffs = new DiffPages(yieldToHost);
	// Refusals and proposals both keep .bak notes: one set of names in the making, so neither takes the other's.
	const backupNames = new BackupNames();
	const writer = new GuardedWriter({
		backupNames,
		reads,
		gateway,
		tracker,
		history,
		bases,
		conflicts,
		settings,
		now,
		conflictsSaved: () => persistence.conflictsSaved(),
		yieldToHost,
		diffs,
		onError: options.onError,
	});
	const resolver = new ConflictResolver({ gateway, bases, conflicts, writer, settings, now, yieldToHost });
	writer.onWritten((write) => resolver.settle(write));
	// A refusal recorded after a write landed on the revision it refused settles as if recorded first.
	writer.onWrittenBeforeRecord((write) => resolver.settle(write));
	const noteHistory = new NoteHistoryService({
		gateway,
		history,
		bases,
		writer,
		conflicts,
		diffs,
		settings,
		onDirty: () => persistence.markDirty(),
	});
	// Every write keeps what it replaced, so any write (a wiping one above all) can be undone.
	writer.onWritten((write) => noteHistory.recordWrite(write));
	writer.onDeleted((deletion) => noteHistory.recordDelete(deletion));
	const proposals = new ProposalStore({
		gateway,
		bases,
		proposals: proposalLog,
		proposalsSaved: () => proposalJournal.saved(),
		backupNames,
		settings,
		now,
	});
	outsideSaves = new OutsideSaves({
		gateway,
		history,
		bases,
		conflicts,
		writer,
		backupNames,
		conflictsSaved: () => persistence.conflictsSaved(),
		settings,
		timers: options.timers,
		now,
		yieldToHost,
		onDirty: () => persistence.markDirty(),
		onError: options.onError,
	});
	const outside = outsideSaves;
	bases.setPinned((revision) => noteHistory.isPinned(revision) || proposals.pins(revision) || outside.pins(revision));
	const activity = new AgentActivity(noteHistory, yieldToHost);
	const waits = new ConflictWaits(conflicts, options.timers);
	const vaultName = options.vaultName ?? "vault";
	const index = options.noteIndex ?? new ParsedNoteIndex({ gateway, yieldToHost });
	// The person's writes (a resolution, a restore) reach the index as agents' do (AgentNotes.write).
	writer.onWritten(async (write) => index.changed?.(write.path));
	writer.onDeleted(async (deletion) => index.changed?.(deletion.path));
	// Asked once: key scopes ignore case where the disk does (the probe never throws; unknown is case-sensitive).
	const caseInsensitive = (await gateway.caseInsensitive?.().catch(() => false)) ?? false;
	const readiness = new StartupReadiness();
	const notes = new AgentNotes({
		readiness,
		host: options.host ?? (options.changeSource?.kind === "user" ? "obsidian" : "folder"),
		gateway,
		history,
		tracker,
		bases,
		reads,
		writer,
		conflicts,
		waits,
		resolver,
		diffs,
		settings,
		pathPolicy,
		now,
		timers: options.timers,
		vaultName,
		noteHistory,
		activity,
		index,
		yieldToHost,
		workspace: options.workspace ?? null,
		appVersion: options.appVersion,
		caseInsensitive,
		proposalStore: proposals,
		proposals: options.proposals === undefined ? proposals : options.proposals,
	});

	// Inside Obsidian: an outside save that overlaps unsaved typing is kept (.bak, conflict), as a refused body is.
	const keptBodies = {
		gateway,
		bases,
		conflicts,
		backupFolder: () => settings().backupFolder,
		now,
		conflictsSaved: () => persistence.conflictsSaved(),
		backupNames,
		onError: options.onError,
	};
	const stopFolding = gateway.foldOutsideSaves?.({
		keep: async (save) => void (await keepOutsideOverTyping(keptBodies, save)),
		onError: (error) => options.onError?.(error),
	});

	let closing: Promise<void> | null = null;
	const close = async () => {
		try {
			stopFolding?.();
			index.close?.();
			await tracker.flush();
			tracker.stop();
			await outside.settle();
			await bases.settle();
			await blobs.close?.();
			await persistence.flush();
			await proposalJournal.compact();
		} finally {
			await storage.close?.();
		}
	};
	return {
		notes,
		gateway,
		history,
		bases,
		conflicts,
		tracker,
		writer,
		resolver,
		noteHistory,
		activity,
		reads,
		timers: options.timers,
		waits,
		proposals,
		person: new PersonNotes({ conflicts, resolver, noteHistory, activity, notes, gateway, now }),
		outsideSaves: outside,
		diffs,
		persistence,
		readiness,
		settings,
		now,
		vaultName,
		pathPolicy,
		// Once: a plugin disabled while it starts is closed by its start-up and by its unload, and a second flush
		// after the storage was handed on would save this instance's state over the next one's.
		close() {
			closing ??= close();
			return closing;
		},
	};
}
