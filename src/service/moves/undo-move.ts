/**
 * Undoing an agent's move, with everything its change touched (the entries that share its `change` id). The note
 * moves back through the guarded writer: it must still be the revision the caller saw, and its old path must be
 * free (a note created there since is never replaced). Inside Obsidian the move back updates links to the note
 * again, as the person's settings say. Then each note whose links the move rewrote gets its text from before back,
 * while it still holds exactly what the rewrite left; one that already holds its old text again (Obsidian's own
 * update) is done, and one that changed since is left as it is and named, never merged blindly. Last, a note the move
 * replaced at its destination is created there again, now that the path is free. Every step is a guarded write,
 * credited to whoever undoes.
 */
import type { BaseStore } from "../stores/base-store";
import { parseEntityTagCondition, revisionOf, type EntityTagCondition } from "../../core/revision";
import type { RevisionEntry } from "../../core/revision-history";
import type { RevisionHistory } from "../stores/revision-history";
import type { VaultGateway } from "../../vault/gateway";
import type { Actor } from "../notes/actor";
import type { GuardedWriter } from "../write/guarded-writer";
import type { MoveOutcome } from "./move-request";

/** What became of one note whose links the move had rewritten. */
export interface LinkUndo {
	path: string;
	/** restored: its text from before the move is back; already: it held that text again; changed: edited since, left as it is. */
	result: "restored" | "already" | "changed" | "not-retained" | "missing";
}

export type MoveUndo =
	| {
			kind: "moved-back";
			/** Where the note was, and where it is again. */
			from: string;
			to: string;
			revision: string;
			links: LinkUndo[];
			/** The note the move had replaced at `from`: created there again (or why not); null when it replaced none. */
			replaced: "restored" | "not-retained" | "exists" | null;
	  }
	/** Moving back was refused (its old path is taken, the note changed, ...): nothing was changed. */
	| { kind: "move-back-refused"; from: string; to: string; outcome: Exclude<MoveOutcome, { kind: "moved" }> };

export interface UndoMoveDeps {
	history: RevisionHistory;
	bases: BaseStore;
	gateway: VaultGateway;
	writer: GuardedWriter;
}

/**
 * Undoes the move recorded as `entry` (which came from `movedFrom`) of the note now at `path`. The caller checked
 * that the note is still there and is `mine` (the revision it saw).
 */
export async function undoMove(
	deps: UndoMoveDeps,
	path: string,
	entry: RevisionEntry,
	movedFrom: string,
	mine: string,
	actor: Actor,
): Promise<MoveUndo> {
	// Gathered before moving back: the history follows the note, and the group names paths as they were.
	const group = entry.change === undefined ? [] : changeGroup(deps.history, entry.change, entry);
	const ifMatch = parseEntityTagCondition(`"${mine}"`);
	const none: EntityTagCondition = { kind: "absent" };
	const moved = await deps.writer.move({
		from: path,
		to: movedFrom,
		ifMatch,
		overwrite: false,
		destinationIfMatch: none,
		actor,
		heldRevision: null,
		heldDestination: null,
	});
	if (moved.kind !== "moved") return { kind: "move-back-refused", from: path, to: movedFrom, outcome: moved };
	const links: LinkUndo[] = [];
	for (const member of group) {
		if (member.entry.deleted) continue;
		// The moved note's own rewrite went back with it.
		const at = member.path === path ? movedFrom : member.path;
		links.push({ path: at, result: await restoreRewrite(deps, at, member.entry, actor) });
	}
	const deletion = group.find((member) => member.entry.deleted && member.path === path);
	const replaced = deletion === undefined ? null : await recreate(deps, path, deletion.entry.revision, actor);
	return { kind: "moved-back", from: path, to: movedFrom, revision: moved.revision, links, replaced };
}

/** The notes (by their paths now) whose links the move recorded as `entry` of the note at `path` rewrote. */
export function rewrittenByMove(history: RevisionHistory, path: string, entry: RevisionEntry): string[] {
	if (entry.change === undefined) return [];
	return changeGroup(history, entry.change, entry)
		.filter((member) => !member.entry.deleted && member.path !== path)
		.map((member) => member.path);
}

/** The other entries of one change, with the path each is under now. */
function changeGroup(
	history: RevisionHistory,
	change: string,
	move: RevisionEntry,
): { path: string; entry: RevisionEntry }[] {
	const group: { path: string; entry: RevisionEntry }[] = [];
	for (const note of history.allNotes())
		for (const entry of note.entries)
			if (entry.change === change && entry !== move) group.push({ path: note.path, entry });
	return group;
}

/** A rewritten note's text from before, put back while the note still holds exactly what the rewrite left. */
async function restoreRewrite(
	deps: UndoMoveDeps,
	path: string,
	entry: RevisionEntry,
	actor: Actor,
): Promise<LinkUndo["result"]> {
	if (entry.replaced === undefined) return "not-retained";
	const note = await deps.gateway.read(path);
	if (note === null) return "missing";
	const now = revisionOf(note.content);
	if (now === entry.replaced) return "already";
	if (now !== entry.revision) return "changed";
	const before = await deps.bases.get(entry.replaced);
	if (before === null) return "not-retained";
	const ifMatch = parseEntityTagCondition(`"${now}"`);
	const outcome = await deps.writer.write({
		path,
		operation: { kind: "replace", body: before },
		ifMatch,
		ifNoneMatch: { kind: "absent" },
		actor,
		heldRevision: null,
		allowEmpty: true,
		unseenBody: true,
	});
	return outcome.kind === "written" || outcome.kind === "unchanged" ? "restored" : "changed";
}

/** The note the move replaced, created again at its path (never over a note made there since). */
async function recreate(
	deps: UndoMoveDeps,
	path: string,
	removed: string,
	actor: Actor,
): Promise<"restored" | "not-retained" | "exists"> {
	const text = await deps.bases.get(removed);
	if (text === null) return "not-retained";
	const outcome = await deps.writer.write({
		path,
		operation: { kind: "replace", body: text },
		ifMatch: { kind: "absent" },
		ifNoneMatch: parseEntityTagCondition("*"),
		actor,
		heldRevision: null,
		allowEmpty: true,
		unseenBody: true,
	});
	return outcome.kind === "written" ? "restored" : "exists";
}
