/**
 * One folder's contents as agents may see them, for REST listings and MCP's list_notes alike: only what the path
 * policy serves (no hidden, private or config folders), each note with its revision. Notes are read one at a
 * time, so a folder of thousands of notes never opens thousands of files at once.
 */
import { validateVaultPath, type PathPolicy } from "../../core/path";
import { revisionOf } from "../../core/revision";
import type { NoteStat, VaultGateway } from "../../vault/gateway";
import { NoteEncodingError, VaultPathError } from "../../vault/errors";

export interface ListedEntry {
	/** The name inside the folder; folders end in "/". */
	name: string;
	/** Vault-relative path; folders end in "/". */
	path: string;
	type: "file" | "folder";
	/** For notes of a served type: the revision of what the note holds now. */
	revision?: string;
	/** Why a note of a served type cannot be read (it is not UTF-8, say); it then has no revision. */
	unreadable?: string;
	stat?: NoteStat;
}

export async function listFolder(
	gateway: VaultGateway,
	policy: PathPolicy,
	folder: string,
): Promise<ListedEntry[] | null> {
	const entries = await gateway.list(folder);
	if (!entries) return null;
	const prefixLength = folder === "" ? 0 : folder.length + 1;
	const listed: ListedEntry[] = [];
	for (const entry of entries) {
		const name = entry.path.slice(prefixLength);
		if (entry.type === "folder") {
			if (validateVaultPath(entry.path.replace(/\/$/, ""), policy, "folder").ok)
				listed.push({ name, path: entry.path, type: "folder" });
			continue;
		}
		// Files of other types are listed by name (as the Local REST API does) but never read.
		if (!validateVaultPath(entry.path, policy, "note").ok) {
			listed.push({ name, path: entry.path, type: "file", ...(entry.stat ? { stat: entry.stat } : {}) });
			continue;
		}
		let snapshot;
		try {
			snapshot = await gateway.read(entry.path);
		} catch (error) {
			// A note that cannot be served (not UTF-8, a symlink loop…) is listed by name, without a revision.
			if (!(error instanceof NoteEncodingError || error instanceof VaultPathError)) throw error;
			listed.push({
				name,
				path: entry.path,
				type: "file",
				unreadable: error.message,
				...(entry.stat ? { stat: entry.stat } : {}),
			});
			continue;
		}
		if (snapshot)
			listed.push({
				name,
				path: entry.path,
				type: "file",
				revision: revisionOf(snapshot.content),
				stat: snapshot.stat,
			});
	}
	return listed;
}
