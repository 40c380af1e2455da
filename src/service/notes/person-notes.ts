/**
 * What the person does, as one service (issue 27): the UI is handed this and nothing else of the guard. Every change
 * is made as the person, through the one guarded writer, replacing exactly the revision the person was shown:
 * resolving and dismissing conflicts, restoring a revision, reverting an agent's write (or another program's save),
 * and deciding proposals; and it tells the UI what changes (conflicts, proposals, notes, the vault).
 */
import type { ConflictRecord, ConflictStatus } from "../../core/conflicts";
import type { ConflictLog } from "../stores/conflict-log";
import { parseEntityTagCondition } from "../../core/revision";
import type { VaultChange, VaultGateway } from "../../vault/gateway";
import { PERSON } from "./actor";
import type { ActivityEntry, AgentActivity, RevertOutcome } from "../history/agent-activity";
import type { AgentNotes } from "./agent-notes";
import type { ConflictResolver, ConflictSides, SaveOutcome } from "../conflicts/conflict-resolver";
import type { NoteChange } from "../revisions/note-change-feed";
import type { HistoryPage, NoteHistoryService, RestoreOutcome, RevisionDetail } from "../history/note-history";
import type { NoteProposals } from "../proposals/note-proposals";

/** The conflicts as the person sees and settles them (the merge modal, the list, the status bar). */
export interface PersonConflicts {
	list(filter?: { status?: ConflictStatus; path?: string }): ConflictRecord[];
	openCount(): number;
	onChange(listener: (record: ConflictRecord) => void): () => void;
	sides(id: string): Promise<ConflictSides | null>;
	save(id: string, text: string, mineRevision: string | null, options?: { unresolved?: boolean }): Promise<SaveOutcome>;
	dismiss(id: string): void;
}

export interface PersonNotesDeps {
	conflicts: ConflictLog;
	resolver: ConflictResolver;
	noteHistory: NoteHistoryService;
	activity: AgentActivity;
	notes: AgentNotes;
	gateway: VaultGateway;
	now: () => number;
}

export class PersonNotes {
	readonly conflicts: PersonConflicts;

	constructor(private readonly deps: PersonNotesDeps) {
		const { conflicts, resolver } = deps;
		this.conflicts = {
			list: (filter) => conflicts.list(filter),
			openCount: () => conflicts.openCount(),
			onChange: (listener) => conflicts.onChange(listener),
			sides: (id) => resolver.sides(id),
			save: (id, text, mineRevision, options) => resolver.save(id, text, mineRevision, options),
			dismiss: (id) => resolver.dismiss(id),
		};
	}

	/** Proposals: the person reviews, accepts (as sent or edited) and rejects them. */
	get proposals(): NoteProposals {
		return this.deps.notes.proposals;
	}

	history(path: string, offset: number, limit: number): Promise<HistoryPage | null> {
		return this.deps.noteHistory.page(path, offset, limit);
	}

	revisionDetail(path: string, revision: string): Promise<RevisionDetail> {
		return this.deps.noteHistory.detail(path, revision, 0);
	}

	/** Writes `revision` back as the person, over exactly `seen` (null: over no note). */
	restore(path: string, revision: string, seen: string | null): Promise<RestoreOutcome> {
		return this.deps.noteHistory.restore(path, revision, PERSON, ifMatchOf(seen), ifNoneMatchOf(seen));
	}

	activity(limit: number): ActivityEntry[] {
		return this.deps.activity.list(limit);
	}

	/** Undoes the write that produced `revision`, as the person, over exactly `seen`. */
	revert(path: string, revision: string, seen: string | null): Promise<RevertOutcome> {
		return this.deps.activity.revert(path, revision, PERSON, ifMatchOf(seen));
	}

	/** The text a person settled for a revert that needed merging, over exactly `mineRevision`. */
	saveRevertMerge(path: string, text: string, mineRevision: string): ReturnType<AgentActivity["saveMerge"]> {
		return this.deps.activity.saveMerge(path, text, mineRevision, PERSON);
	}

	noteNow(path: string): ReturnType<AgentActivity["noteNow"]> {
		return this.deps.activity.noteNow(path);
	}

	/** Every note change, as the person may see it (all notes). */
	onNoteChanged(listener: (change: NoteChange) => void): () => void {
		return this.deps.notes.onNoteChanged(() => PERSON, listener);
	}

	/** Raw vault events, for views that redo their work when the note under them changes. */
	onVaultChange(listener: (change: VaultChange) => void): () => void {
		return this.deps.gateway.onChange(listener);
	}

	now(): number {
		return this.deps.now();
	}
}

function ifMatchOf(seen: string | null) {
	return parseEntityTagCondition(seen === null ? undefined : `"${seen}"`);
}

function ifNoneMatchOf(seen: string | null) {
	return parseEntityTagCondition(seen === null ? "*" : undefined);
}
