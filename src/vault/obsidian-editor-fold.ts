/**
 * Another program's save to a note open in a markdown editor with unsaved typing. Obsidian keeps the editor's text
 * when the file changes under it, and its autosave then writes that text over the program's save. Here the save is
 * folded into the editor instead: a three-way merge of what the file held before the save, the editor's text and the
 * program's, applied as the smallest line changes (editor-changes.ts), so the cursor, the selection and the typing
 * stay put and the autosave writes both. A save that overlaps the typing goes to the keeper (a .bak, a conflict, a
 * notice), and the editor is left as it is.
 *
 * What each file held before a save is kept here for the notes open in markdown editors only (bounded by what is
 * open): read when a note opens and at each change of its file. Saves of the editor itself (the gateway's saves of
 * accepted writes included) and the same bytes again (a sync tool, the watcher noticing twice) are never folded. A
 * note's changes are handled in order, each as soon as its event arrives (the file is read at once, not after the
 * tracker's coalescing), so the fold lands before the autosave can fire, and is checked again if it did.
 */
import { MarkdownView, type App, type EventRef, type TAbstractFile, type TFile } from "obsidian";
import { mergedText, mergeThreeWayInSlices } from "../core/merge";
import type { YieldToHost } from "../core/steps";
import { applyChanges, lineChanges } from "./editor-changes";
import type { OutsideSaveKeeper } from "./gateway";
import type { OpenEditors } from "./obsidian-editors";
import { isFile } from "./obsidian-files";

/** How often a fold is merged again because the person kept typing while it was computed. */
const FOLD_ATTEMPTS = 10;
/** Texts an editor held that may still arrive as its own saves (see `remember`), per note. */
const REMEMBERED = 4;

export class EditorFold {
	/** Per note open in a markdown editor: what its file held when last seen (the base of the next fold). */
	private readonly onDisk = new Map<TFile, string>();
	/** Per open note: texts its editor held that it may still be saving (a fold was applied on top, or we saved it). */
	private readonly editorTexts = new Map<TFile, string[]>();
	/** Per note: the change being handled and those waiting behind it. */
	private readonly turns = new Map<TFile, Promise<void>>();
	private vaultRefs: EventRef[] = [];
	private workspaceRefs: EventRef[] = [];
	private keeper: OutsideSaveKeeper | null = null;

	constructor(
		private readonly app: App,
		private readonly editors: OpenEditors,
		private readonly yieldToHost: YieldToHost,
	) {}

	/** Starts folding (the notes open now are read at once); returns the function that stops it. */
	start(keeper: OutsideSaveKeeper): () => void {
		this.stop();
		this.keeper = keeper;
		const { vault, workspace } = this.app;
		this.vaultRefs = [
			vault.on("modify", (file) => {
				if (isFile(file)) this.changed(file);
			}),
			vault.on("delete", (file) => this.forget(file)),
		];
		this.workspaceRefs = [
			workspace.on("layout-change", () => this.followOpenNotes()),
			workspace.on("file-open", () => this.followOpenNotes()),
		];
		this.followOpenNotes();
		return () => this.stop();
	}

	stop(): void {
		for (const ref of this.vaultRefs) this.app.vault.offref(ref);
		for (const ref of this.workspaceRefs) this.app.workspace.offref(ref);
		this.vaultRefs = [];
		this.workspaceRefs = [];
		this.keeper = null;
		this.onDisk.clear();
		this.editorTexts.clear();
	}

	/** The gateway is about to save `text` from the editor of `file` (an accepted write): that save is the editor's. */
	saving(file: TFile, text: string): void {
		if (this.keeper) this.remember(file, text);
	}

	/** How many notes' texts are kept (the notes open in markdown editors). */
	notesKept(): number {
		return this.onDisk.size;
	}

	/** Resolves once every change heard so far has been handled (tests). */
	async settled(): Promise<void> {
		while (this.turns.size > 0) await Promise.all(this.turns.values());
	}

	/** Reads the notes opened since last time, and forgets those no markdown editor shows any more. */
	private followOpenNotes(): void {
		const open = new Set<TFile>();
		this.app.workspace.iterateAllLeaves((leaf) => {
			if (leaf.view instanceof MarkdownView && leaf.view.file) open.add(leaf.view.file);
		});
		for (const file of [...this.onDisk.keys()]) if (!open.has(file)) this.forget(file);
		for (const file of open) {
			if (this.onDisk.has(file)) continue;
			const reading = this.read(file);
			this.inTurn(file, async () => {
				const text = await reading;
				// A change handled first knows better; a note closed meanwhile is not kept.
				if (text !== null && !this.onDisk.has(file) && this.editors.markdownEditorOf(file)) this.onDisk.set(file, text);
			});
		}
	}

	private changed(file: TFile): void {
		if (!this.keeper || (!this.onDisk.has(file) && !this.editors.markdownEditorOf(file))) return;
		// Read now: the autosave may write over the program's save soon after.
		const reading = this.read(file);
		this.inTurn(file, () => this.check(file, reading));
	}

	private async check(file: TFile, reading: Promise<string | null>): Promise<void> {
		const written = await reading;
		const view = this.editors.markdownEditorOf(file);
		if (written === null || !view) return this.forget(file);
		const before = this.onDisk.get(file) ?? null;
		this.onDisk.set(file, written);
		// The same bytes again (a sync tool replaying them, the watcher noticing twice): nothing changed.
		if (written === before) return;
		const typed = view.editor.getValue();
		if (typed === written) {
			// The editor's own save: any text it held before has been saved (or replaced) by now.
			this.editorTexts.delete(file);
			return;
		}
		// Nothing unsaved (Obsidian reloads the editor), or a save of what the editor held a moment ago.
		if (typed === before || this.savedByEditor(file, written)) return;
		await this.fold(file, view, before, typed, written);
	}

	/** Folds the program's save into the editor, or hands it to the keeper when they overlap. */
	private async fold(
		file: TFile,
		view: MarkdownView,
		before: string | null,
		typedAtSave: string,
		written: string,
	): Promise<void> {
		let typed = typedAtSave;
		for (let attempt = 1; attempt <= FOLD_ATTEMPTS && before !== null; attempt++) {
			const merge = await mergeThreeWayInSlices(before, typed, written, this.yieldToHost);
			if (!merge.clean) break;
			const changes = await lineChanges(typed, mergedText(merge), this.yieldToHost);
			// Look again just before applying: the person may have typed, or the autosave fired, meanwhile.
			const nowOnDisk = await this.read(file);
			if (nowOnDisk === null || view.file !== file) return;
			const now = view.editor.getValue();
			if (now !== typed) {
				typed = now;
				continue;
			}
			// The autosave wrote this very text over the program's save meanwhile: the file holds it now.
			if (nowOnDisk === typed) this.onDisk.set(file, typed);
			this.remember(file, typed);
			applyChanges(view.editor, changes);
			return;
		}
		// Overlapping (or no base known, or the person never stopped typing): keep the program's text, tell the person.
		await this.keeper?.keep({ path: file.path, before, typed, written });
	}

	/** Changes of one note are handled one after another, in the order their events came. */
	private inTurn(file: TFile, job: () => Promise<void>): void {
		const turn = (this.turns.get(file) ?? Promise.resolve())
			.then(job)
			.catch((error: unknown) => this.keeper?.onError(error))
			.finally(() => {
				if (this.turns.get(file) === turn) this.turns.delete(file);
			});
		this.turns.set(file, turn);
	}

	private read(file: TFile): Promise<string | null> {
		return this.app.vault.read(file).catch(() => null);
	}

	/** The editor held `text` and may save it any moment: its change event is then the editor's, not a program's. */
	private remember(file: TFile, text: string): void {
		const texts = this.editorTexts.get(file) ?? [];
		texts.push(text);
		if (texts.length > REMEMBERED) texts.shift();
		this.editorTexts.set(file, texts);
	}

	/** `text` is one the editor held: it and those before it are saved now. */
	private savedByEditor(file: TFile, text: string): boolean {
		const texts = this.editorTexts.get(file);
		const at = texts?.indexOf(text) ?? -1;
		if (at < 0) return false;
		texts!.splice(0, at + 1);
		return true;
	}

	private forget(file: TAbstractFile): void {
		if (!isFile(file)) return;
		this.onDisk.delete(file);
		this.editorTexts.delete(file);
	}
}
