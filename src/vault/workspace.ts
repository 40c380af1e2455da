/**
 * What only Obsidian has besides the vault: its commands, its panes, its moment and the daily/periodic notes plugins'
 * settings. The headless host has none of it (no workspace at all). Only the Obsidian adapter (obsidian-workspace.ts)
 * knows how each is reached; services ask through this, and agents' entry points reach it only through AgentNotes.
 */
import type { FormatResult } from "../core/periodic/date-format";
import type { Period, PeriodSettings } from "../core/periodic/periods";

export interface HostCommand {
	id: string;
	name: string;
}

export interface HostWorkspace {
	/**
	 * How the person's own plugins name a period's notes: the Periodic Notes plugin (when that period is on in it), else
	 * Daily notes (daily) or the Calendar plugin (weekly); null when none of them configures the period.
	 */
	periodSettings(period: Period): PeriodSettings | null;
	/** A date in a moment format, by Obsidian's own moment (the person's locale). */
	formatDate(format: string, date: Date): FormatResult;
	/** Every command Obsidian has registered now. */
	commands(): HostCommand[];
	/** Runs a command as the command palette would; false when Obsidian could not run it (unknown, or not now). */
	runCommand(id: string): boolean;
	/** Opens a note in a pane (a new one with `newLeaf`); false when there is no such note. Never creates one. */
	openNote(path: string, newLeaf: boolean): Promise<boolean>;
	/** The notes open in editors (markdown views), each once. */
	openNotes(): string[];
	/**
	 * Saves every editor whose text differs from its file (the person's unsaved typing, or a command's change to the
	 * buffer), as Obsidian's own save would. Returns the notes saved.
	 */
	saveEditors(): Promise<string[]>;
}
