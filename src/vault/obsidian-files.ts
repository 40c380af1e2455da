/**
 * Files in Obsidian's vault, as the gateway needs them: whether the disk holds something the index does not know
 * (Obsidian's index lags the disk, and a case-insensitive disk hides other spellings), parent folders made safely,
 * and deletes that stay recoverable.
 */
import { TFile, TFolder, type App, type TAbstractFile } from "obsidian";
import type { NoteStat } from "./gateway";
import { VaultPathError } from "./errors";

/**
 * Obsidian's index lags the disk: a note another program just removed is still listed until the watcher tells
 * Obsidian. A failure on such a note means "gone" (null); any other failure is rethrown.
 */
export async function unlessGone(app: App, file: TFile, error: unknown): Promise<null> {
	if (!(await app.vault.adapter.exists(file.path).catch(() => true))) return null;
	throw error;
}

/** Refuses a path the disk already has, in any spelling, while the index does not: creating there would overwrite it. */
export async function refuseIfOnDisk(app: App, normalized: string): Promise<void> {
	const { adapter } = app.vault;
	if (!(await adapter.exists(normalized))) return;
	throw new VaultPathError(normalized, (await adapter.exists(normalized, true)) ? "not-indexed" : "case-variant");
}

/**
 * Deletes follow the person's trash choice (`trashFile`), but an agent's delete is never permanent: when
 * "permanently delete" is chosen (or the choice cannot be read), the note is moved into the vault's `.trash`
 * instead. A move, not a copy and a delete, so whatever the file holds at that moment is what is kept. Its
 * durability is Obsidian's (its adapter, or the system trash): we have no folder to fsync there, and invent none.
 */
export async function trashRecoverably(app: App, file: TFile): Promise<void> {
	const option = (app.vault as { getConfig?: (key: string) => unknown }).getConfig?.("trashOption");
	if (option === "system" || option === "local") await app.fileManager.trashFile(file);
	else await app.vault.adapter.trashLocal(file.path);
}

/** Makes the parent folders of `path`, never over a file, an unindexed folder or another spelling of one. */
export async function ensureParent(app: App, path: string): Promise<void> {
	const slash = path.lastIndexOf("/");
	if (slash === -1) return;
	const parts = path.slice(0, slash).split("/");
	for (let i = 1; i <= parts.length; i++) {
		const folder = parts.slice(0, i).join("/");
		const existing = app.vault.getAbstractFileByPath(folder);
		if (existing instanceof TFolder) continue;
		if (existing) throw new VaultPathError(path, "file-in-the-way");
		// As for notes: never create a folder over one Obsidian has not indexed, or over another spelling of it.
		await refuseIfOnDisk(app, folder);
		await app.vault.createFolder(folder).catch((error: unknown) => {
			if (!(app.vault.getAbstractFileByPath(folder) instanceof TFolder)) throw error;
		});
	}
}

export function isFile(file: TAbstractFile): file is TFile {
	return file instanceof TFile;
}

export function toStat(file: TFile): NoteStat {
	return { ctime: file.stat.ctime, mtime: file.stat.mtime, size: file.stat.size };
}
