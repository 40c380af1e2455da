/** How the host shows a conflict in its merge modal: Obsidian offers one (headless hosts do not). */
export class MergeModalHook {
	private opener: ((conflictId: string) => void) | null = null;

	/** The host offers its merge modal (Obsidian does, headless does not). Returns the withdrawal. */
	offer(open: (conflictId: string) => void): () => void {
		this.opener = open;
		return () => {
			if (this.opener === open) this.opener = null;
		};
	}

	canOpen(): boolean {
		return this.opener !== null;
	}

	/** Shows a conflict in the host's merge modal; false when the host has none. */
	open(conflictId: string): boolean {
		if (!this.opener) return false;
		this.opener(conflictId);
		return true;
	}
}
