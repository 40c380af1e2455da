/**
 * Obsidian commands run by agents. A command changes notes through Obsidian, with no revision at all, so no key may
 * run one unless the person allowed that key (settings: `commandKeys`). When one is allowed:
 * - the person's unsaved typing is saved first, as theirs, so the command starts from what they see and nothing
 *   they typed can be lost or mixed into the command's change;
 * - every note the command changes while it runs (until the vault has been quiet for a moment) is credited to the
 *   key, in history and activity, and can be undone when its text before the command is known (a note open in an
 *   editor, or whose last revision is kept);
 * - a change the command makes to an editor's text is saved before the run ends, so it is the command's revision.
 * One command runs at a time.
 */
import type { BaseStore } from "../stores/base-store";
import { KeyedMutex } from "../stores/keyed-mutex";
import { revisionOf } from "../../core/revision";
import type { RevisionHistory } from "../stores/revision-history";
import type { Timers } from "../../core/timers";
import type { RevisionGuardSettings } from "../../settings";
import type { VaultChange, VaultGateway } from "../../vault/gateway";
import type { HostCommand, HostWorkspace } from "../../vault/workspace";
import { historySource, type AgentActor } from "./actor";
import type { GuardedWriter } from "../write/guarded-writer";
import type { RevisionTracker } from "../revisions/revision-tracker";
import type { ScopeForbidden } from "../../core/scope-refusal";

/** The vault counts as quiet once no change has come for this long after a command. */
const QUIET_MS = 300;
/** A command that keeps changing notes longer than this is credited for what it changed until then. */
const LONGEST_RUN_MS = 5_000;
/** An answer lists at most this many changed notes (a command may touch the whole vault). */
const MAX_LISTED = 500;

export interface ChangedNote {
	path: string;
	change: "modified" | "created" | "deleted" | "renamed";
	/** For a rename: where the note was. */
	from?: string;
	/** Undo (POST /history/{path}/revert) can take the change back: its text before the command is kept. */
	undoable: boolean;
	/** The note's revision after the command (callers hand out its change tag: the agent has not seen the note). */
	revision?: string;
}

export type CommandList = { kind: "unavailable" } | { kind: "listed"; commands: HostCommand[]; allowed: boolean };

export type CommandRun =
	| { kind: "unavailable" }
	| { kind: "not-allowed"; key: string }
	/** The key's scope is not the whole vault: a command could change, or show, any note. */
	| { kind: "scope-forbidden"; refusal: ScopeForbidden }
	| { kind: "unknown"; id: string }
	/** Obsidian would not run it now (a command that needs an open editor, say). */
	| { kind: "not-run"; id: string }
	/** `changed` lists at most MAX_LISTED notes; `unlisted` counts the rest (all of them are credited all the same). */
	| { kind: "ran"; id: string; changed: ChangedNote[]; unlisted: number };

export interface CommandRunsDeps {
	workspace: HostWorkspace | null;
	gateway: VaultGateway;
	history: RevisionHistory;
	bases: BaseStore;
	tracker: RevisionTracker;
	writer: GuardedWriter;
	settings: () => RevisionGuardSettings;
	timers: Timers;
	isNote: (path: string) => boolean;
	/** Why the caller's scope keeps it from running commands (its key may not change every note), or null. */
	scopeRefusal: (actor: AgentActor) => ScopeForbidden | null;
}

export class CommandRuns {
	private readonly oneAtATime = new KeyedMutex();

	constructor(private readonly deps: CommandRunsDeps) {}

	/** Whether `actor`'s key may run commands (the person allowed it by name, and its scope is the whole vault). */
	allowed(actor: AgentActor): boolean {
		return this.deps.settings().commandKeys.includes(actor.name) && this.deps.scopeRefusal(actor) === null;
	}

	list(actor: AgentActor): CommandList {
		const { workspace } = this.deps;
		if (!workspace) return { kind: "unavailable" };
		return { kind: "listed", commands: workspace.commands(), allowed: this.allowed(actor) };
	}

	run(actor: AgentActor, id: string): Promise<CommandRun> {
		const { workspace } = this.deps;
		if (!workspace) return Promise.resolve({ kind: "unavailable" });
		const scoped = this.deps.scopeRefusal(actor);
		if (scoped !== null) return Promise.resolve({ kind: "scope-forbidden", refusal: scoped });
		if (!this.allowed(actor)) return Promise.resolve({ kind: "not-allowed", key: actor.name });
		if (!workspace.commands().some((command) => command.id === id)) return Promise.resolve({ kind: "unknown", id });
		return this.oneAtATime.run("command", () => this.runNow(workspace, actor, id));
	}

	private async runNow(workspace: HostWorkspace, actor: AgentActor, id: string): Promise<CommandRun> {
		const { tracker, gateway, history } = this.deps;
		await this.savePersonsTyping(workspace);
		const before = await this.snapshotOpenNotes(workspace);
		const changes = new RunChanges(history);
		const stopListening = gateway.onChange((change) => changes.add(change));
		const stopCrediting = tracker.attribute(historySource(actor));
		try {
			if (!workspace.runCommand(id)) return { kind: "not-run", id };
			await this.settle(changes);
			// What the command typed into an editor is its change too: saved now, while its changes are credited to it.
			for (const path of await workspace.saveEditors()) changes.add({ type: "modify", path });
			await this.settle(changes);
			await tracker.flush();
		} finally {
			stopCrediting();
			stopListening();
		}
		const changed: ChangedNote[] = [];
		for (const note of changes.notes()) {
			if (!this.deps.isNote(note.path)) continue;
			const beforeText = before.get(note.from ?? note.path) ?? (await this.keptText(note.revisionBefore));
			const credited = await this.credit(actor, note, beforeText);
			if (credited) changed.push(credited);
		}
		return {
			kind: "ran",
			id,
			changed: changed.slice(0, MAX_LISTED),
			unlisted: Math.max(0, changed.length - MAX_LISTED),
		};
	}

	/** The person's typing goes to disk as their revision before the command runs (never credited to the agent). */
	private async savePersonsTyping(workspace: HostWorkspace): Promise<void> {
		for (const path of await workspace.saveEditors()) {
			const note = await this.deps.gateway.read(path);
			if (note) this.deps.tracker.record(path, note.content, revisionOf(note.content), { kind: "user" });
		}
		await this.deps.tracker.flush();
	}

	/** The notes open in editors, as they are just before the command: the command most likely changes these. */
	private async snapshotOpenNotes(workspace: HostWorkspace): Promise<Map<string, string>> {
		const texts = new Map<string, string>();
		for (const path of workspace.openNotes()) {
			const note = await this.deps.gateway.read(path);
			if (note) texts.set(path, note.content);
		}
		return texts;
	}

	private async keptText(revision: string | undefined): Promise<string | null> {
		return revision === undefined ? null : this.deps.bases.get(revision);
	}

	/** Records one note's change as the agent's write (undoable when its text before is known) and describes it. */
	private async credit(actor: AgentActor, note: RunNote, beforeText: string | null): Promise<ChangedNote | null> {
		const { writer } = this.deps;
		const { path } = note;
		const now = await this.deps.gateway.read(path);
		if (now === null) {
			// Made and removed within the run: nothing changed.
			if (!note.existedBefore) return null;
			if (beforeText === null) return { path, change: "deleted", undoable: false };
			await writer.creditDelete(path, beforeText, actor);
			return { path, change: "deleted", undoable: true };
		}
		const revision = revisionOf(now.content);
		if (!note.existedBefore) {
			await writer.creditChange(path, null, now.content, actor);
			return { path, change: "created", undoable: true, revision };
		}
		const renamed = note.from === undefined ? {} : { from: note.from };
		if (beforeText === now.content)
			return note.from === undefined ? null : { path, change: "renamed", ...renamed, undoable: false, revision };
		if (beforeText === null) return { path, change: "modified", ...renamed, undoable: false, revision };
		await writer.creditChange(path, { content: beforeText, revision: revisionOf(beforeText) }, now.content, actor);
		return { path, change: "modified", ...renamed, undoable: true, revision };
	}

	/**
	 * Waits until a whole QUIET_MS passes without a change, or LONGEST_RUN_MS have passed. Counted in timer turns, not
	 * read from a clock, so a clock that stands still (a test's) cannot keep it waiting.
	 */
	private async settle(changes: RunChanges): Promise<void> {
		for (let waited = 0; waited < LONGEST_RUN_MS; waited += QUIET_MS) {
			const seen = changes.count;
			await new Promise<void>((resolve) => this.deps.timers.schedule(resolve, QUIET_MS));
			if (changes.count === seen) return;
		}
	}
}

interface RunNote {
	path: string;
	/** The note was there when the run began (false: the command created it). */
	existedBefore: boolean;
	/** Where it was before the command renamed it. */
	from?: string;
	/** Its latest revision in history when the command first changed it. */
	revisionBefore: string | undefined;
}

/** The notes one run changed, by their path now: renames carry what was seen of the note before. */
class RunChanges {
	private readonly byPath = new Map<string, RunNote>();
	/** How many changes have arrived (settling waits for it to stop growing). */
	count = 0;

	constructor(private readonly history: RevisionHistory) {}

	add(change: VaultChange): void {
		this.count++;
		if (change.type === "rename") {
			const earlier = this.byPath.get(change.oldPath);
			this.byPath.delete(change.oldPath);
			// History may already follow the rename (the tracker hears it first): look under both names.
			const revisionBefore =
				earlier?.revisionBefore ?? this.lastRevision(change.oldPath) ?? this.lastRevision(change.path);
			this.byPath.set(change.path, {
				path: change.path,
				existedBefore: earlier?.existedBefore ?? true,
				from: earlier?.from ?? change.oldPath,
				revisionBefore,
			});
			return;
		}
		if (this.byPath.has(change.path)) return;
		// Taken when the change arrives, before the tracker records the new revision: what the note was before.
		this.byPath.set(change.path, {
			path: change.path,
			existedBefore: change.type !== "create",
			revisionBefore: this.lastRevision(change.path),
		});
	}

	/** The note's last revision in history, also once the tracker has marked it deleted (it hears a delete first). */
	private lastRevision(path: string): string | undefined {
		return this.history.entries(path).at(-1)?.revision;
	}

	notes(): RunNote[] {
		return [...this.byPath.values()];
	}
}
