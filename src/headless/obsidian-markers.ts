/**
 * Finds the marker the Obsidian plugin leaves while it runs on a vault. The config folder need not be `.obsidian`
 * (Obsidian lets a person rename it), so every top-level folder is looked in for `plugins/revision-guard/running.json`:
 * one readdir and one read per folder, without listing the vault.
 */
import { promises as fs } from "fs";
import { join } from "path";
import { parseHolder, PLUGIN_MARKER, type HolderRecord } from "../host/running-marker";

export interface FoundMarker {
	/** The marker's path inside the vault, e.g. `.obsidian/plugins/revision-guard/running.json`. */
	path: string;
	/** Null when the file is not a marker this version can read (cut short while being written, say). */
	holder: HolderRecord | null;
}

export async function findPluginMarkers(folder: string): Promise<FoundMarker[]> {
	const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
	const found: FoundMarker[] = [];
	for (const entry of entries) {
		if (!entry.isDirectory()) continue;
		const path = `${entry.name}/plugins/revision-guard/${PLUGIN_MARKER}`;
		const text = await fs.readFile(join(folder, path), "utf8").catch(() => null);
		if (text !== null) found.push({ path, holder: parseHolder(text) });
	}
	return found;
}
