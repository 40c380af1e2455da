/** What the merge view takes from its host: the texts and facts to show, and what to call back. */

export interface MergeViewInput {
	/** The kept side is what another program's save dropped, not an agent's refused write (labels say so). */
	outside?: boolean;
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
	/** Review mode: `theirs` is a proposal the person accepts, edits then accepts, or rejects (see ReviewInput). */
	review?: ReviewInput;
}

/**
 * A proposal under review: an agent's change that was not written, waiting for the person. While the note is as it
 * was when the proposal was made, the host passes that note as both base and mine, so the result starts as the
 * proposal with each of its changes undoable; once the note changed since, it is the three-way merge.
 */
export interface ReviewInput {
	changedSince: boolean;
}

export interface MergeViewCallbacks {
	/** Write the result through the guarded writer. Resolve on success; the host calls view.rebase(...) itself if the note changed. */
	onSave(text: string, summary: { unresolved: number }): Promise<void>;
	onCancel(): void;
	/** Ask the person to confirm (the host shows an Obsidian dialog; tests stub it). */
	confirm(message: string): Promise<boolean>;
	/** Open the .bak note (the host calls Obsidian's workspace); absent: no link is shown. */
	openBackup?(): void;
	/** Review mode: the person rejects the proposal, with an optional note to the agent. */
	onReject?(note: string): Promise<void>;
}
