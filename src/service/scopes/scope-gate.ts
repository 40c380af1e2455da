/**
 * The one place a key's scope is decided for the service: what a caller may see (reads, listings, search, feeds,
 * records) and what it may change. AgentNotes asks it before anything reaches the vault; entry points only render
 * what it decided. The person, and a caller that is no key, are not limited.
 */
import { notesOfBackup } from "../../core/backup-note";
import { isBackupPath } from "../../core/conflicts";
import { folderVisible, ruleOf, type Access, type KeyScope } from "../../core/key-scope";
import type { ScopeForbidden, ScopeWhy } from "../../core/scope-refusal";
import type { RevisionGuardSettings } from "../../settings";
import type { Actor } from "../notes/actor";

/** What a change may do: go ahead, become a proposal for the person, or be refused. */
export type ChangeGate =
	{ kind: "write" } | { kind: "propose"; refusal: ScopeForbidden } | { kind: "refuse"; refusal: ScopeForbidden };

/** A change that carries new content (a proposal can), or one that does not (a delete, move, copy or undo). */
export type ChangeKind = "content" | "other";

const ALL = (): boolean => true;

export class ScopeGate {
	constructor(private readonly settings: () => RevisionGuardSettings) {}

	/** The caller's scope, or null when it is not limited (the person, a caller that is no key, a key with every note). */
	scopeOf(actor: Actor): KeyScope | null {
		if (actor.kind !== "agent" || actor.scope === undefined || actor.scope.whole) return null;
		return actor.scope;
	}

	/** What the caller may do with `path`. A .bak note is as visible as its note, and read-only like every backup. */
	access(actor: Actor, path: string): Access {
		const scope = this.scopeOf(actor);
		return scope === null ? "write" : this.accessIn(scope, path);
	}

	visible(actor: Actor, path: string): boolean {
		return this.access(actor, path) !== "hidden";
	}

	/** A test for many paths at once (listings, search, feeds): constant for a caller that is not limited. */
	visibility(actor: Actor): (path: string) => boolean {
		const scope = this.scopeOf(actor);
		if (scope === null) return ALL;
		return (path) => this.accessIn(scope, path) !== "hidden";
	}

	/**
	 * Whether a folder is shown to the caller: only when something inside it could be readable. The backup folder
	 * mirrors the vault's folders, so a folder inside it is shown as the folder it mirrors would be.
	 */
	folderVisible(actor: Actor, folder: string): boolean {
		const scope = this.scopeOf(actor);
		if (scope === null) return true;
		const bare = folder.replace(/\/+$/, "");
		const backups = this.backupFolderFor(scope, bare);
		if (backups !== "" && bare.toLowerCase() === backups.toLowerCase()) return scope.read.length > 0;
		if (backups !== "" && bare.toLowerCase().startsWith(backups.toLowerCase() + "/"))
			return folderVisible(scope, bare.slice(backups.length + 1));
		return folderVisible(scope, folder);
	}

	/**
	 * Whether the caller may change `path`, and how. A .bak note the caller may see passes here: the guarded writer
	 * refuses every agent change to a backup itself (backup-read-only), which says more than a scope refusal would.
	 */
	change(actor: Actor, path: string, kind: ChangeKind): ChangeGate {
		const scope = this.scopeOf(actor);
		if (scope === null) return { kind: "write" };
		if (this.isBackup(path))
			return this.accessIn(scope, path) === "hidden"
				? { kind: "refuse", refusal: forbidden(scope, path, "outside-read") }
				: { kind: "write" };
		const rule = ruleOf(scope, path);
		switch (rule.access) {
			case "write":
				return { kind: "write" };
			case "hidden":
				return { kind: "refuse", refusal: forbidden(scope, path, "outside-read") };
			case "read":
				return { kind: "refuse", refusal: forbidden(scope, path, "read-only", rule.field, rule.pattern) };
			case "propose":
				if (kind === "other")
					return { kind: "refuse", refusal: forbidden(scope, path, "not-proposable", rule.field, rule.pattern) };
				return { kind: "propose", refusal: forbidden(scope, path, "no-proposals", rule.field, rule.pattern) };
		}
	}

	/** The refusal of anything that needs `path` when the caller may not see it (a template), or null when it may. */
	hiddenRefusal(actor: Actor, path: string): ScopeForbidden | null {
		const scope = this.scopeOf(actor);
		return scope !== null && this.accessIn(scope, path) === "hidden" ? forbidden(scope, path, "outside-read") : null;
	}

	/**
	 * Whether the caller may move `path` when the move rewrites the links of `linking` (the notes that link to it,
	 * inside Obsidian): each must be one it may change, and no .bak (agents never change those). The refusal names
	 * only the moved note, never which of them it may not change nor whether it may see it.
	 */
	relinkRefusal(actor: Actor, path: string, linking: readonly string[]): ScopeForbidden | null {
		const scope = this.scopeOf(actor);
		if (scope === null) return null;
		const changeable = (note: string) =>
			note === path || (!this.isBackup(note) && this.change(actor, note, "other").kind === "write");
		if (linking.every(changeable)) return null;
		return { reason: "scope-forbidden", why: "links-outside-write", key: scope.key, path, lists: scope.lists };
	}

	/**
	 * The refusal for a path that goes through a symbolic link, for a caller with lists (null for one without, which
	 * follows links): its globs match the link's name, which need not say where the note is.
	 */
	linkRefusal(actor: Actor, path: string): ScopeForbidden | null {
		const scope = this.scopeOf(actor);
		if (scope === null) return null;
		return {
			reason: "scope-forbidden",
			why: "through-link",
			key: scope.key,
			path,
			access: "hidden",
			lists: scope.lists,
		};
	}

	/** Commands can change any note, with no revision: only a caller that may change every note may run them. */
	commandRefusal(actor: Actor): ScopeForbidden | null {
		const scope = this.scopeOf(actor);
		if (scope === null) return null;
		return {
			reason: "scope-forbidden",
			why: "commands-need-whole-vault",
			key: scope.key,
			path: null,
			lists: scope.lists,
		};
	}

	private accessIn(scope: KeyScope, path: string): Access {
		const backups = this.backupFolderFor(scope, path);
		if (!isBackupPath(path, backups)) return ruleOf(scope, path).access;
		const notes = notesOfBackup(path, backups, this.settings().noteExtensions);
		return notes.every((note) => ruleOf(scope, note).access !== "hidden") ? "read" : "hidden";
	}

	/**
	 * The backup folder as it holds for `path`: on a disk that tells case apart, a folder spelled like it in another
	 * case is a folder of its own (none, for `path`), whose notes are held to the globs by their own paths.
	 */
	private backupFolderFor(scope: KeyScope, path: string): string {
		const folder = this.settings().backupFolder.replace(/^\/+|\/+$/g, "");
		if (scope.caseInsensitive || folder === "" || path === folder || path.startsWith(folder + "/")) return folder;
		const lower = path.toLowerCase();
		return lower === folder.toLowerCase() || lower.startsWith(folder.toLowerCase() + "/") ? "" : folder;
	}

	private isBackup(path: string): boolean {
		return isBackupPath(path, this.settings().backupFolder);
	}
}

function forbidden(
	scope: KeyScope,
	path: string,
	why: ScopeWhy,
	field?: ScopeForbidden["field"],
	pattern?: string | null,
): ScopeForbidden {
	const access = why === "outside-read" ? "hidden" : why === "read-only" ? "read" : "propose";
	return {
		reason: "scope-forbidden",
		why,
		key: scope.key,
		path,
		access,
		...(field === undefined ? {} : { field, pattern: pattern ?? null }),
		lists: scope.lists,
	};
}
