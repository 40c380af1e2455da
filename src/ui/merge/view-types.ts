/** What the merge view takes from its host: the texts and facts to show, and what to call back. */

export interface MergeViewInput {
	notePath: string;
	agentName: string;
	/** null: what the agent read is no longer retained. */
	base: string | null;
	/** The note now. */
	mine: string;
	/** The agent's proposal. */
	theirs: string;
	/** ISO 8601 time the agent wrote (its write was refused then); absent when unknown. */
	agentWroteAt?: string | null;
	/** The .bak note holding the agent's proposal; absent when none was kept. */
	backupPath?: string | null;
	/** Show and take Cmd rather than Ctrl shortcuts. */
	mac?: boolean;
}

export interface MergeViewCallbacks {
	/** Write the result through the guarded writer. Resolve on success; the host calls view.rebase(...) itself if the note changed. */
	onSave(text: string, summary: { unresolved: number }): Promise<void>;
	onCancel(): void;
	/** Ask the person to confirm (the host shows an Obsidian dialog; tests stub it). */
	confirm(message: string): Promise<boolean>;
	/** Open the .bak note (the host calls Obsidian's workspace); absent: no link is shown. */
	openBackup?(): void;
}
