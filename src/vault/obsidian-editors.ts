/**
 * Where Obsidian holds a note's text besides the file: markdown editors (whose buffer the gateway reads and writes
 * through the Editor API) and editors inside other views, such as canvas cards and hover popovers, which the API
 * does not expose. Those are known only by the workspace's `editor-change` event (their typing) and by
 * `activeEditor` (the focused one); a note one of them holds unsaved text for is not written.
 */
import { MarkdownView, type App, type Editor, type EventRef, type TFile } from "obsidian";

export class OpenEditors {
	/** The last editor outside a markdown view the person typed in, per note (by file, so a rename keeps it). */
	private readonly typedElsewhere = new WeakMap<TFile, Editor>();
	private readonly ref: EventRef;

	constructor(private readonly app: App) {
		this.ref = app.workspace.on("editor-change", (editor, info) => {
			if (!(info instanceof MarkdownView) && info.file) this.typedElsewhere.set(info.file, editor);
		});
	}

	/** The markdown editor showing `file`, if any (split panes of one note share their text). */
	markdownEditorOf(file: TFile): MarkdownView | null {
		let found: MarkdownView | null = null;
		this.app.workspace.iterateAllLeaves((leaf) => {
			if (!found && leaf.view instanceof MarkdownView && leaf.view.file?.path === file.path) found = leaf.view;
		});
		return found;
	}

	/**
	 * The note is being edited where its text cannot be checked: a focused canvas card or popover, or one the person
	 * typed in whose text is not on disk yet (its autosave still pending after they clicked away).
	 */
	async editedElsewhere(file: TFile): Promise<boolean> {
		const active = this.app.workspace.activeEditor;
		if (active && !(active instanceof MarkdownView) && active.file?.path === file.path) return true;
		const editor = this.typedElsewhere.get(file);
		if (!editor) return false;
		if (editor.getValue() !== (await this.app.vault.read(file))) return true;
		// Saved: the file holds what the card holds.
		this.typedElsewhere.delete(file);
		return false;
	}

	detach(): void {
		this.app.workspace.offref(this.ref);
	}
}
