/**
 * The Obsidian gateway. A note open in an editor is what that editor holds, unsaved typing included: reads and
 * checks use `editor.getValue()` (nothing is saved to do so), and an accepted write goes into the editor as the
 * smallest line changes and is then saved, so the person's cursor stays put and their autosave never writes an old
 * buffer over it. Notes that are not open are checked and written inside `Vault.process`. New notes are created only
 * when nothing is on disk under that name in any spelling the disk treats as equal; deletes always stay recoverable.
 */
import { normalizePath, TFile, TFolder, type App, type EventRef, type MarkdownView } from "obsidian";
import type { YieldToHost } from "../core/steps";
import { applyChanges, lineChanges } from "./editor-changes";
import { OpenEditors } from "./obsidian-editors";
import { EditorFold } from "./obsidian-editor-fold";
import type {
	FolderEntry,
	MoveOutcome,
	MovePlan,
	MutationOutcome,
	MutationPlan,
	NoteSnapshot,
	NoteStat,
	OutsideSaveKeeper,
	VaultChange,
	VaultGateway,
} from "./gateway";
import { NoteBusyError, NoteKeptChangingError, VaultPathError } from "./errors";
import { ensureParent, isFile, refuseIfOnDisk, toStat, trashRecoverably, unlessGone } from "./obsidian-files";
import { moveInObsidian } from "./obsidian-move";
import { ObsidianSearch } from "./obsidian-search";

/** How often a write is decided again because the person kept typing while its changes were computed. */
const EDITOR_ATTEMPTS = 10;

export class ObsidianGateway implements VaultGateway {
	/** Vault event refs of the subscriptions still open; a closed one is dropped, so nothing keeps its listener alive. */
	private readonly live = new Set<EventRef>();
	private readonly editors: OpenEditors;
	/** Other programs' saves to notes with unsaved typing, folded into their editors (obsidian-editor-fold.ts). */
	readonly editorFold: EditorFold;
	/** Obsidian's own simple search, metadata cache and Dataview, for the search service. */
	readonly search: ObsidianSearch;

	constructor(
		private readonly app: App,
		/** Registers a cleanup with the plugin (`Component.register`): whatever is still subscribed at unload is detached. */
		register: (cleanup: () => void) => void,
		private readonly yieldToHost: YieldToHost,
	) {
		this.editors = new OpenEditors(app);
		this.editorFold = new EditorFold(app, this.editors, yieldToHost);
		this.search = new ObsidianSearch(app);
		register(() => {
			for (const ref of this.live) this.app.vault.offref(ref);
			this.live.clear();
			this.editors.detach();
			this.editorFold.stop();
		});
	}

	openInEditor(path: string): boolean {
		const file = this.app.vault.getFileByPath(normalizePath(path));
		return file !== null && this.editors.markdownEditorOf(file) !== null;
	}

	async read(path: string): Promise<NoteSnapshot | null> {
		const file = this.app.vault.getFileByPath(normalizePath(path));
		if (!file) return null;
		const view = this.editors.markdownEditorOf(file);
		// An editor can outlive its file for a moment (removed on disk, Obsidian not told yet): gone is gone.
		if (view && !(await this.app.vault.adapter.exists(file.path))) return null;
		const before = identityOfFile(file);
		const content = view
			? view.editor.getValue()
			: await this.app.vault.read(file).catch((error: unknown) => unlessGone(this.app, file, error));
		if (content === null) return null;
		// The file's identity comes only with its own text, read from a file that had settled and did not change meanwhile.
		const settled =
			!view && before === identityOfFile(file) && Date.now() - Math.max(file.stat.mtime, file.stat.ctime) >= SETTLED_MS;
		return { path: file.path, content, stat: toStat(file), ...(settled ? { identity: before } : {}) };
	}

	async identity(path: string): Promise<string | null> {
		const file = this.app.vault.getFileByPath(normalizePath(path));
		return file ? identityOfFile(file) : null;
	}

	async mutate<T>(path: string, decide: (current: string | null) => MutationPlan<T>): Promise<MutationOutcome<T>> {
		const normalized = normalizePath(path);
		const file = this.app.vault.getFileByPath(normalized);
		if (!file) return this.create(normalized, decide);
		try {
			for (let attempt = 1; attempt <= EDITOR_ATTEMPTS; attempt++) {
				// An editor we cannot see into (a canvas card, a popover) may hold typing we would overwrite: refuse.
				if (await this.editors.editedElsewhere(file))
					throw new NoteBusyError(normalized, await this.app.vault.read(file));
				const view = this.editors.markdownEditorOf(file);
				const done = view ? await this.mutateInEditor(view, file, decide) : await this.mutateFile(file, decide);
				if (done) return done;
			}
		} catch (error) {
			if ((await unlessGone(this.app, file, error)) === null) throw new VaultPathError(normalized, "index-behind");
			throw error;
		}
		// The note changed between every decision and its write (the person kept typing, or switched the tab).
		throw new NoteKeptChangingError(normalized, this.editors.markdownEditorOf(file)?.editor.getValue() ?? null);
	}

	/** Through Obsidian's file manager, so links are updated as the person's settings say (see obsidian-move.ts). */
	rename<T>(from: string, to: string, decide: (current: string | null) => MovePlan<T>): Promise<MoveOutcome<T>> {
		return moveInObsidian(
			{ app: this.app, text: async (file) => (await this.read(file.path))?.content ?? null },
			from,
			to,
			decide,
		);
	}

	async createExclusive(path: string, content: string): Promise<boolean> {
		const normalized = normalizePath(path);
		if (this.app.vault.getAbstractFileByPath(normalized) || (await this.app.vault.adapter.exists(normalized)))
			return false;
		await ensureParent(this.app, normalized);
		try {
			await this.app.vault.create(normalized, content);
			return true;
		} catch (error) {
			if (this.app.vault.getAbstractFileByPath(normalized) || (await this.app.vault.adapter.exists(normalized)))
				return false;
			throw error;
		}
	}

	async list(folder: string): Promise<FolderEntry[] | null> {
		const target = folder === "" ? this.app.vault.getRoot() : this.app.vault.getFolderByPath(normalizePath(folder));
		if (!target) return null;
		return target.children
			.filter((child) => !child.name.startsWith("."))
			.map((child): FolderEntry =>
				child instanceof TFolder
					? { path: child.path + "/", type: "folder" }
					: { path: child.path, type: "file", stat: child instanceof TFile ? toStat(child) : undefined },
			)
			.sort((a, b) => a.path.localeCompare(b.path));
	}

	async listNotes(extensions: readonly string[]): Promise<string[]> {
		return this.app.vault
			.getFiles()
			.filter((file) => extensions.includes(file.extension.toLowerCase()))
			.map((file) => file.path);
	}

	async stat(path: string): Promise<NoteStat | null> {
		const file = this.app.vault.getFileByPath(normalizePath(path));
		return file ? toStat(file) : null;
	}

	onChange(listener: (change: VaultChange) => void): () => void {
		const { vault } = this.app;
		const refs = [
			vault.on("create", (file) => isFile(file) && listener({ type: "create", path: file.path })),
			vault.on("modify", (file) => isFile(file) && listener({ type: "modify", path: file.path })),
			vault.on("delete", (file) => isFile(file) && listener({ type: "delete", path: file.path })),
			vault.on("rename", (file, oldPath) => isFile(file) && listener({ type: "rename", path: file.path, oldPath })),
		];
		for (const ref of refs) this.live.add(ref);
		return () => {
			for (const ref of refs) {
				vault.offref(ref);
				this.live.delete(ref);
			}
		};
	}

	/** Obsidian's adapter finds any spelling of a path on a disk that ignores case: its config folder, spelled otherwise, tells. */
	async caseInsensitive(): Promise<boolean> {
		const { configDir, adapter } = this.app.vault;
		const swapped = [...configDir]
			.map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()))
			.join("");
		return swapped !== configDir && (await adapter.exists(swapped));
	}

	foldOutsideSaves(keeper: OutsideSaveKeeper): () => void {
		return this.editorFold.start(keeper);
	}

	async activeNote(): Promise<string | null> {
		// The route checks the file is a note type it serves (a PDF can be the active file too).
		return this.app.workspace.getActiveFile()?.path ?? null;
	}

	/**
	 * One attempt on a note open in an editor: decide on the buffer; for a write, compute the line changes in slices,
	 * and apply them only if the buffer is still what was decided on (else null: decide again). Then save, so the
	 * file holds the write and the editor has nothing older left to autosave.
	 */
	private async mutateInEditor<T>(
		view: MarkdownView,
		file: TFile,
		decide: (current: string | null) => MutationPlan<T>,
	): Promise<MutationOutcome<T> | null> {
		await this.refuseIfEditorBehindDisk(view, file);
		const current = view.editor.getValue();
		// Still this note, still this text: the person may have typed, or switched the tab to another note.
		const unchanged = () => view.file === file && view.editor.getValue() === current;
		if (!unchanged()) return null;
		const plan = decide(current);
		if (plan.kind === "keep") return { result: plan.result, stat: null };
		if (plan.kind === "trash") {
			// What the person typed goes to the trash with the note (it is saved first), never lost.
			this.editorFold.saving(file, current);
			await view.save();
			if (!unchanged()) return null;
			await trashRecoverably(this.app, file);
			return { result: plan.result, stat: null };
		}
		const changes = await lineChanges(current, plan.content, this.yieldToHost);
		if (!unchanged()) return null;
		applyChanges(view.editor, changes);
		this.editorFold.saving(file, plan.content);
		await view.save();
		return { result: plan.result, stat: toStat(file) };
	}

	/**
	 * The editor holds what Obsidian last took in; another program may have changed the file since, unnoticed until
	 * the watcher tells Obsidian. Deciding on the buffer then, and saving it, would overwrite that change unseen, so
	 * the write is refused for a retry (by then the editor has the new text). The disk differing from the index is
	 * only a sign: the content decides (our own save may not have reached the index yet).
	 */
	private async refuseIfEditorBehindDisk(view: MarkdownView, file: TFile): Promise<void> {
		const { adapter } = this.app.vault;
		const onDisk = await adapter.stat(file.path);
		if (onDisk && onDisk.mtime === file.stat.mtime && onDisk.size === file.stat.size) return;
		if (onDisk && (await adapter.read(file.path)) === view.editor.getValue()) return;
		throw new VaultPathError(file.path, "index-behind");
	}

	/** One attempt on a note no editor shows: checked and written inside `Vault.process`; trashed in the same turn. */
	private async mutateFile<T>(
		file: TFile,
		decide: (current: string | null) => MutationPlan<T>,
	): Promise<MutationOutcome<T> | null> {
		let plan: MutationPlan<T> | null = null;
		let seen = "";
		await this.app.vault.process(file, (data) => {
			seen = data;
			plan = decide(data);
			return plan.kind === "write" ? plan.content : data;
		});
		const decided = plan as MutationPlan<T> | null;
		if (!decided) throw new Error("Vault.process did not run the check");
		if (decided.kind !== "trash")
			return { result: decided.result, stat: decided.kind === "write" ? toStat(file) : null };
		// The check passed inside process; an autosave or a sync may have landed since. Look again and trash in the same
		// turn, so nothing of ours runs in between.
		if (this.editors.markdownEditorOf(file) || (await this.app.vault.read(file)) !== seen) return null;
		await trashRecoverably(this.app, file);
		return { result: decided.result, stat: null };
	}

	/**
	 * A note that is not in Obsidian's index yet may still be on disk: just created by another program (the watcher
	 * has not told Obsidian), or under another spelling on a case-insensitive disk. Creating then would overwrite
	 * it; it is refused instead, and so is a create that Obsidian itself finds taken.
	 */
	private async create<T>(
		normalized: string,
		decide: (current: string | null) => MutationPlan<T>,
	): Promise<MutationOutcome<T>> {
		if (this.app.vault.getAbstractFileByPath(normalized)) throw new VaultPathError(normalized, "folder-in-the-way");
		await refuseIfOnDisk(this.app, normalized);
		const plan = decide(null);
		if (plan.kind !== "write") return { result: plan.result, stat: null };
		await ensureParent(this.app, normalized);
		try {
			const created = await this.app.vault.create(normalized, plan.content);
			return { result: plan.result, stat: toStat(created) };
		} catch (error) {
			// Created in Obsidian meanwhile: decide again, on what it holds now (never overwrite it blind).
			if (this.app.vault.getFileByPath(normalized)) return this.mutate(normalized, decide);
			await refuseIfOnDisk(this.app, normalized);
			throw error;
		}
	}
}

/**
 * A note's identity from what Obsidian knows of its file (its size and times, to the millisecond), which its own
 * file watcher keeps current: no disk access.
 */
function identityOfFile(file: TFile): string {
	return `${file.stat.size}:${file.stat.mtime}:${file.stat.ctime}`;
}

/**
 * How long a file must have been left alone before its identity is trusted: Obsidian's times are in milliseconds and
 * some disks keep whole seconds, so an edit within that tick of a read could leave them as they were (git's racily
 * clean files).
 */
const SETTLED_MS = 3_000;
