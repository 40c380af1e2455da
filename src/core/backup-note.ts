/**
 * Which note a .bak note keeps a refused write of, read back from its name (conflicts.ts `backupPathFor`): a .bak is
 * shown to a key only when its note is, so a note hidden from a key keeps its refused copies hidden too.
 */
import { BACKUP_SUFFIX } from "./conflicts";

/** `notes/Plan.20261121-101500-2.bak.md` → `notes/Plan`, the stem the .bak was named after. */
const STAMP = /(?:\.\d{8}-\d{6}(?:-\d+)?)?\.bak\.md$/i;

/**
 * The paths the note a backup belongs to may have (one per note extension: the name keeps the stem, not the
 * extension). With a backup folder, the note's folders are mirrored inside it; a file there that is not named like
 * a .bak stands for itself at the mirrored path.
 */
export function notesOfBackup(path: string, backupFolder: string, noteExtensions: readonly string[]): string[] {
	const folder = backupFolder.replace(/^\/+|\/+$/g, "");
	const inFolder = folder !== "" && path.toLowerCase().startsWith(folder.toLowerCase() + "/");
	const mirrored = inFolder ? path.slice(folder.length + 1) : path;
	if (!mirrored.toLowerCase().endsWith(BACKUP_SUFFIX)) return [mirrored];
	const stem = mirrored.replace(STAMP, "");
	return noteExtensions.map((extension) => `${stem}.${extension}`);
}
