/** The notice a person sees when an agent's write is refused. */
import { Notice } from "obsidian";
import type { ConflictRecord } from "../core/conflicts";

export function showConflictNotice(record: ConflictRecord): void {
	const kept = record.backupPath ? ` Its version is kept in "${record.backupPath}".` : " Its version could not be kept; the agent was told.";
	new Notice(`Refused a stale write to "${record.path}" from ${record.agent}.${kept}`, 10_000);
}
