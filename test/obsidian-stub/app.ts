/** App, Workspace, FileManager and views: just what the plugin touches, as strict as Obsidian where it matters. */
import { readFileSync } from "fs";
import { join } from "path";
import { CliRegistry } from "./cli";
import { Commands } from "./commands";
import { SimClock } from "./clock";
import { MarkdownViewModel } from "./editor";
import { Events } from "./events";
import { TFile, type TAbstractFile } from "./files";
import { updateLinks } from "./links";
import { Vault, type VaultOptions } from "./vault";
import { OutsideWorld, type WatcherOptions } from "./watcher";
import { MetadataCache } from "./metadata-cache";

export class View {
	constructor(public leaf: WorkspaceLeaf) {}
	getViewType(): string {
		return "empty";
	}
}

/** An editor of one note: the editor model (editor.ts) inside a workspace leaf. */
export class MarkdownView extends MarkdownViewModel {
	constructor(
		public leaf: WorkspaceLeaf,
		readonly app: App,
	) {
		super({
			clock: app.clock,
			readDisk: (file) => readFileSync(join(app.vault.basePath, file.path), "utf8"),
			modify: (file, text) => app.vault.modify(file, text),
		});
	}
	/** An open tab showing another note: Obsidian announces it (`file-open`). */
	override open(file: TFile): void {
		super.open(file);
		if (this.app.workspace.leaves.includes(this.leaf)) this.app.workspace.trigger("file-open", file);
	}
}

/**
 * A note edited inside another view (a canvas card, a hover popover): an editor with its own buffer and autosave,
 * but no MarkdownView. Obsidian reports its typing only through the workspace's `editor-change` event, and it is
 * the workspace's `activeEditor` only while focused.
 */
export class EmbeddedEditor extends MarkdownViewModel {
	constructor(private readonly app: App) {
		super({
			clock: app.clock,
			readDisk: (file) => readFileSync(join(app.vault.basePath, file.path), "utf8"),
			modify: (file, text) => app.vault.modify(file, text),
		});
	}
	override requestSave(): void {
		super.requestSave();
		this.app.workspace.trigger("editor-change", this.editor, this);
	}
}

/** A canvas showing one note as a card the person can type in. */
export class EmbeddedEditorView extends View {
	readonly card: EmbeddedEditor;
	constructor(
		leaf: WorkspaceLeaf,
		file: TFile,
		private readonly app: App,
	) {
		super(leaf);
		this.card = new EmbeddedEditor(app);
		this.card.open(file);
	}
	override getViewType(): string {
		return "canvas";
	}
	get file(): TFile | null {
		return this.card.file;
	}
	/** The person clicks into the card. */
	focus(): void {
		this.app.workspace.activeEditor = this.card;
	}
	/** The person clicks elsewhere; the card keeps its buffer and its pending autosave. */
	blur(): void {
		if (this.app.workspace.activeEditor === this.card) this.app.workspace.activeEditor = null;
	}
	type(text: string, at?: number): void {
		this.card.type(text, at);
	}
}

export class WorkspaceLeaf {
	view: View | MarkdownView;
	constructor(view?: View) {
		this.view = view ?? new View(this);
	}
}

export class Workspace extends Events {
	layoutReady = false;
	readonly leaves: WorkspaceLeaf[] = [];
	private readyCallbacks: (() => unknown)[] = [];
	opened: string[] = [];
	/** The editor the person is in, when it is not a plain MarkdownView (a canvas card, a popover). */
	activeEditor: { file: TFile | null } | null = null;

	onLayoutReady(callback: () => unknown): void {
		if (this.layoutReady) callback();
		else this.readyCallbacks.push(callback);
	}
	/** Set by the App: what happens just before layout-ready (the vault's start-up flood of `create` events). */
	beforeLayoutReady: () => void = () => undefined;
	/** Test helper: Obsidian finished loading. */
	triggerLayoutReady(): void {
		if (this.layoutReady) return;
		this.beforeLayoutReady();
		this.layoutReady = true;
		const callbacks = this.readyCallbacks;
		this.readyCallbacks = [];
		for (const callback of callbacks) callback();
	}
	/** Test helper: Obsidian is quitting (it may not unload plugins first); runs the tasks handlers added. */
	async quit(): Promise<void> {
		const tasks: (() => Promise<unknown>)[] = [];
		this.trigger("quit", {
			add: (task: () => Promise<unknown>) => tasks.push(task),
			addPromise: (promise: Promise<unknown>) => tasks.push(() => promise),
			isEmpty: () => tasks.length === 0,
		});
		for (const task of tasks) await task();
	}
	iterateAllLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
		for (const leaf of this.leaves) callback(leaf);
	}
	getActiveFile(): TFile | null {
		for (const leaf of this.leaves) if (leaf.view instanceof MarkdownView && leaf.view.file) return leaf.view.file;
		return null;
	}
	getActiveViewOfType<T>(type: abstract new (...args: never[]) => T): T | null {
		for (const leaf of this.leaves) if (leaf.view instanceof type) return leaf.view;
		return null;
	}
	async openLinkText(path: string): Promise<void> {
		this.opened.push(path);
	}
	/** Which leaf `getLeaf` handed out for each open: "new" (a new tab) or "current". */
	readonly openedIn: ("new" | "current")[] = [];
	/** The leaf a file opens in (a new tab when `newLeaf` is set); opening records the path in `opened`. */
	getLeaf(newLeaf?: boolean | "tab" | "split" | "window"): { openFile(file: TFile): Promise<void> } {
		return {
			openFile: async (file) => {
				this.opened.push(file.path);
				this.openedIn.push(newLeaf ? "new" : "current");
			},
		};
	}
}

export class FileManager {
	constructor(
		private readonly vault: Vault,
		private readonly metadataCache: MetadataCache,
	) {}

	/**
	 * Renames or moves a file, then updates the links to it in other notes (and in itself) as the person's setting says
	 * (see links.ts). Refuses a destination that exists, as `vault.rename` does.
	 */
	async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
		const oldPath = file.path;
		const linking =
			file instanceof TFile
				? Object.entries(this.metadataCache.resolvedLinks)
						.filter(([, targets]) => targets[oldPath] !== undefined)
						.map(([source]) => source)
				: [];
		await this.vault.rename(file, newPath);
		if (file instanceof TFile) await updateLinks(this.vault, file, oldPath, linking);
	}

	/** Follows the person's "Deleted files" setting: system trash, the vault's `.trash`, or permanently delete. */
	async trashFile(file: TAbstractFile): Promise<void> {
		await this.vault.removeFile(
			file,
			(this.vault.getConfig("trashOption") as "system" | "local" | "none" | undefined) ?? "local",
		);
	}
}

/** Obsidian's secret storage (1.11.4+): secrets kept outside the vault's files. */
export class SecretStorage {
	private readonly secrets = new Map<string, string>();
	setSecret(id: string, secret: string): void {
		if (!/^[a-z0-9-]+$/.test(id)) throw new Error("Invalid secret id");
		this.secrets.set(id, secret);
	}
	getSecret(id: string): string | null {
		return this.secrets.get(id) ?? null;
	}
	listSecrets(): string[] {
		return [...this.secrets.keys()];
	}
}

export interface AppOptions extends VaultOptions {
	watcher?: WatcherOptions;
	/** Leave out secret storage, as Obsidian before 1.11.4 has none. */
	noSecretStorage?: boolean;
	/** This device's secret storage, to load another vault copy on the same device (secrets do not sync). */
	secretStorage?: SecretStorage;
}

export class App {
	/** The simulation's own clock: autosave and the file watcher run on it (see clock.ts). */
	readonly clock = new SimClock();
	readonly vault: Vault;
	/** Obsidian's index of tags and links (metadata-cache.ts): it follows the vault's events, late. */
	readonly metadataCache: MetadataCache;
	readonly workspace = new Workspace();
	readonly fileManager: FileManager;
	/** Other programs changing the vault's folder, noticed late by the watcher. */
	readonly outside: OutsideWorld;
	readonly secretStorage: SecretStorage | undefined;
	/** The CLI's commands (plugins add theirs through registerCliHandler, 1.12.2+). */
	readonly cli = new CliRegistry();
	/**
	 * Obsidian's plugin registry (undocumented, as plugins reach each other's APIs): the loaded plugins by id. Tests put
	 * a focused fake of another plugin here (Dataview's `api`).
	 */
	readonly plugins: { plugins: Record<string, unknown> } = { plugins: {} };
	/** The command palette's registry (plugins' addCommand lands here as `<plugin id>:<id>`). */
	readonly commands = new Commands();

	constructor(basePath: string, options: AppOptions = {}) {
		this.vault = new Vault(basePath, this.clock, options);
		this.metadataCache = new MetadataCache(this.vault);
		this.vault.onFileWritten = (file) => this.editors(file.path).forEach((view) => view.fileChanged());
		// A deleted note's tabs close; unsaved typing in them is gone, as in Obsidian.
		this.vault.onFileRemoved = (file) => this.editors(file.path).forEach((view) => this.closeView(view));
		this.vault.loadFromDisk();
		this.workspace.beforeLayoutReady = () => this.vault.deliverStartupFlood();
		this.fileManager = new FileManager(this.vault, this.metadataCache);
		this.outside = new OutsideWorld(this.vault, this.clock, options.watcher);
		this.vault.adapter.noticeLater = (path) => this.outside.notice(path);
		this.secretStorage = options.noSecretStorage ? undefined : (options.secretStorage ?? new SecretStorage());
	}

	/** Test helper: opens `path` in an editor and returns the view, so a test can type in it. */
	openEditor(path: string): MarkdownView {
		const leaf = new WorkspaceLeaf();
		const view = new MarkdownView(leaf, this);
		const file = this.vault.getFileByPath(path);
		if (!file) throw new Error(`no indexed file ${path}`);
		view.open(file);
		leaf.view = view;
		this.workspace.leaves.push(leaf);
		// As Obsidian does when a note opens in a new tab.
		this.workspace.trigger("file-open", file);
		this.workspace.trigger("layout-change");
		return view;
	}

	/** Test helper: opens `path` as a card in a canvas (an editor that is not a MarkdownView), focused. */
	openEmbeddedEditor(path: string): EmbeddedEditorView {
		const file = this.vault.getFileByPath(path);
		if (!file) throw new Error(`no indexed file ${path}`);
		const leaf = new WorkspaceLeaf();
		const view = new EmbeddedEditorView(leaf, file, this);
		leaf.view = view;
		this.workspace.leaves.push(leaf);
		view.focus();
		return view;
	}

	/** Closes an editor: its leaf leaves the workspace and it never saves again. */
	closeView(view: MarkdownViewModel): void {
		view.close();
		const leaf = this.workspace.leaves.find(
			(candidate) =>
				candidate.view === view || (candidate.view instanceof EmbeddedEditorView && candidate.view.card === view),
		);
		if (leaf) this.workspace.leaves.splice(this.workspace.leaves.indexOf(leaf), 1);
		if (this.workspace.activeEditor === view) this.workspace.activeEditor = null;
		if (leaf) this.workspace.trigger("layout-change");
	}

	/** Every editor of `path`: markdown views and canvas cards. */
	private editors(path: string): MarkdownViewModel[] {
		return this.workspace.leaves.flatMap((leaf) => {
			const editor =
				leaf.view instanceof MarkdownView ? leaf.view : leaf.view instanceof EmbeddedEditorView ? leaf.view.card : null;
			return editor && editor.file?.path === path ? [editor] : [];
		});
	}
}
