/** App, Workspace, FileManager and views: just what the plugin touches. */
import { Events } from "./events";
import { TFile, type TAbstractFile } from "./files";
import { Vault } from "./vault";

export class View {
	constructor(public leaf: WorkspaceLeaf) {}
}

/** An editor view of one file, with text the "person" has typed but not saved yet. */
export class MarkdownView extends View {
	file: TFile | null = null;
	unsaved: string | null = null;
	saves = 0;
	constructor(leaf: WorkspaceLeaf, private readonly vault: Vault) {
		super(leaf);
	}
	async save(): Promise<void> {
		this.saves++;
		if (this.file && this.unsaved !== null) {
			const text = this.unsaved;
			this.unsaved = null;
			await this.vault.modify(this.file, text);
		}
	}
}

export class WorkspaceLeaf {
	view: View;
	constructor(view?: View) {
		this.view = view ?? new View(this);
	}
}

export class Workspace extends Events {
	layoutReady = false;
	readonly leaves: WorkspaceLeaf[] = [];
	private readyCallbacks: (() => unknown)[] = [];
	opened: string[] = [];

	onLayoutReady(callback: () => unknown): void {
		if (this.layoutReady) callback();
		else this.readyCallbacks.push(callback);
	}
	/** Test helper: Obsidian finished loading. */
	triggerLayoutReady(): void {
		this.layoutReady = true;
		const callbacks = this.readyCallbacks;
		this.readyCallbacks = [];
		for (const callback of callbacks) callback();
	}
	iterateAllLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
		for (const leaf of this.leaves) callback(leaf);
	}
	getActiveFile(): TFile | null {
		for (const leaf of this.leaves) if (leaf.view instanceof MarkdownView && leaf.view.file) return leaf.view.file;
		return null;
	}
	async openLinkText(path: string): Promise<void> {
		this.opened.push(path);
	}
}

export class FileManager {
	constructor(private readonly vault: Vault) {}
	/** Moves to the vault's `.trash`, as Obsidian does with the "vault trash" option. */
	async trashFile(file: TAbstractFile): Promise<void> {
		await this.vault.removeFile(file, `.trash/${file.name}.${Date.now()}`);
	}
}

export class App {
	readonly vault: Vault;
	readonly workspace = new Workspace();
	readonly fileManager: FileManager;
	constructor(basePath: string) {
		this.vault = new Vault(basePath);
		this.fileManager = new FileManager(this.vault);
	}
	/** Test helper: opens `path` in an editor and returns the view, so a test can type unsaved text. */
	openEditor(path: string): MarkdownView {
		const leaf = new WorkspaceLeaf();
		const view = new MarkdownView(leaf, this.vault);
		view.file = this.vault.getFileByPath(path);
		leaf.view = view;
		this.workspace.leaves.push(leaf);
		return view;
	}
}
