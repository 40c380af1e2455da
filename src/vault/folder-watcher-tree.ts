/**
 * What the folder watcher knows to exist, kept in memory so that a removed folder can be reported note by note
 * without asking the disk (it is already gone when we hear of it). Paths are vault-relative with "/"; "" is the root.
 */

/** "file": a regular file; "other": any other entry that is not a folder (a symbolic link, a FIFO), reported like a file. */
export type EntryKind = "file" | "other" | "folder";

interface KnownFolder {
	/** Tells a folder from another one made at the same path after it was removed (device and inode). */
	identity: string;
	children: Map<string, EntryKind>;
}

export interface Forgotten {
	files: string[];
	/** The folder itself first, then everything below it. */
	folders: string[];
}

export class KnownTree {
	private readonly folders = new Map<string, KnownFolder>();

	constructor(rootIdentity: string) {
		this.folders.set("", { identity: rootIdentity, children: new Map() });
	}

	kindOf(path: string): EntryKind | undefined {
		return this.folders.get(parentOf(path))?.children.get(nameOf(path));
	}

	hasFolder(path: string): boolean {
		return this.folders.has(path);
	}

	identityOf(folder: string): string | undefined {
		return this.folders.get(folder)?.identity;
	}

	/** Names known directly inside `folder`. */
	childrenOf(folder: string): ReadonlyMap<string, EntryKind> {
		return this.folders.get(folder)?.children ?? new Map<string, EntryKind>();
	}

	/**
	 * The path itself when its folder is known, else its highest ancestor whose folder is known: a path under a folder
	 * removed meanwhile, or not seen yet, is looked at from there.
	 */
	topmostUnknown(path: string): string {
		let parent = parentOf(path);
		while (parent !== "" && !this.folders.has(parent)) {
			path = parent;
			parent = parentOf(path);
		}
		return path;
	}

	/** `folder` and every folder known under it. */
	foldersUnder(folder: string): string[] {
		const found = [folder];
		for (const [name, kind] of this.childrenOf(folder))
			if (kind === "folder") found.push(...this.foldersUnder(childPath(folder, name)));
		return found;
	}

	/** False when the parent folder is not known (it was removed meanwhile): nothing is added then. */
	addFile(path: string, kind: "file" | "other" = "file"): boolean {
		const parent = this.folders.get(parentOf(path));
		if (!parent) return false;
		parent.children.set(nameOf(path), kind);
		return true;
	}

	/** addFile for a `name` directly inside `folder` (a folder's listing); nothing when `folder` is not known. */
	addFileIn(folder: string, name: string, kind: "file" | "other" = "file"): void {
		this.folders.get(folder)?.children.set(name, kind);
	}

	/**
	 * Every regular file known, as vault-relative paths, a folder's files together (before those of its folders):
	 * what a listing of the whole vault would find, without listing it again.
	 */
	regularFiles(): string[] {
		const found: string[] = [];
		const visit = (folder: string) => {
			const children = this.folders.get(folder)?.children;
			if (!children) return;
			// Joined rather than concatenated: each path is made flat at once, not as a pair of strings flattened later,
			// when the start-up looks it up (tens of thousands of them).
			for (const [name, kind] of children)
				if (kind === "file") found.push(folder === "" ? name : [folder, name].join("/"));
			for (const [name, kind] of children) if (kind === "folder") visit(childPath(folder, name));
		};
		visit("");
		return found;
	}

	addFolder(path: string, identity: string): boolean {
		const parent = this.folders.get(parentOf(path));
		if (!parent) return false;
		parent.children.set(nameOf(path), "folder");
		this.folders.set(path, { identity, children: new Map() });
		return true;
	}

	/** Forgets `path` and, for a folder, everything under it; says which files and folders that was. */
	remove(path: string): Forgotten {
		const forgotten: Forgotten = { files: [], folders: [] };
		const kind = this.kindOf(path);
		if (kind === undefined) return forgotten;
		this.folders.get(parentOf(path))?.children.delete(nameOf(path));
		if (kind !== "folder") forgotten.files.push(path);
		else this.forgetFolder(path, forgotten);
		return forgotten;
	}

	private forgetFolder(folder: string, forgotten: Forgotten): void {
		const known = this.folders.get(folder);
		this.folders.delete(folder);
		forgotten.folders.push(folder);
		for (const [name, kind] of known?.children ?? []) {
			const path = childPath(folder, name);
			if (kind !== "folder") forgotten.files.push(path);
			else this.forgetFolder(path, forgotten);
		}
	}
}

export function parentOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "" : path.slice(0, slash);
}

export function nameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

export function childPath(folder: string, name: string): string {
	return folder === "" ? name : `${folder}/${name}`;
}

/**
 * A folder's identity. Birth time is left out: where the system cannot give it, Node reports the change time, which
 * moves whenever a note is added. A reused inode number is dealt with by the session (the folder is listed again).
 */
export function identityOf(stats: { dev: number; ino: number }): string {
	return `${stats.dev}:${stats.ino}`;
}

/** Any segment starting with "." (our temp files and state, .trash, .obsidian): never a note, never looked at. */
export function isHiddenPath(path: string): boolean {
	return path.startsWith(".") || path.includes("/.");
}
