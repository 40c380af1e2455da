/**
 * The Obsidian gateway. Token checks run inside `Vault.process`, whose callback is synchronous, so nothing can
 * change a note between our check and our write. Open editors are saved first so unsaved typing counts.
 */
import { MarkdownView, normalizePath, TFile, TFolder, type App, type EventRef, type TAbstractFile } from "obsidian";
import { VaultPathError, type FolderEntry, type MutationOutcome, type MutationPlan, type NoteSnapshot, type NoteStat, type VaultChange, type VaultGateway } from "./gateway";

export class ObsidianGateway implements VaultGateway {
	constructor(
		private readonly app: App,
		/** Registers an event ref with the plugin so it is detached on unload. */
		private readonly registerEvent: (ref: EventRef) => void,
	) {}

	async read(path: string): Promise<NoteSnapshot | null> {
		const file = this.app.vault.getFileByPath(normalizePath(path));
		if (!file) return null;
		await this.saveOpenEditors(file.path);
		const content = await this.app.vault.read(file);
		return { path: file.path, content, stat: toStat(file) };
	}

	async mutate<T>(path: string, decide: (current: string | null) => MutationPlan<T>): Promise<MutationOutcome<T>> {
		const normalized = normalizePath(path);
		await this.saveOpenEditors(normalized);
		const file = this.app.vault.getFileByPath(normalized);
		if (!file) {
			if (this.app.vault.getAbstractFileByPath(normalized)) throw new VaultPathError(normalized, "folder-in-the-way");
			const plan = decide(null);
			if (plan.kind !== "write") return { result: plan.result, stat: null };
			await this.ensureParent(normalized);
			try {
				const created = await this.app.vault.create(normalized, plan.content);
				return { result: plan.result, stat: toStat(created) };
			} catch (error) {
				// Someone created the note meanwhile: decide again, on what it holds now (never overwrite it blind).
				if (this.app.vault.getFileByPath(normalized)) return this.mutate(path, decide);
				throw error;
			}
		}
		let plan: MutationPlan<T> | null = null;
		await this.app.vault.process(file, (data) => {
			plan = decide(data);
			return plan.kind === "write" ? plan.content : data;
		});
		const decided = plan as MutationPlan<T> | null;
		if (!decided) throw new Error("Vault.process did not run the check");
		if (decided.kind === "trash") {
			// Deletes go to the trash the user chose in Obsidian, so even a mistaken one can be undone.
			await this.app.fileManager.trashFile(file);
			return { result: decided.result, stat: null };
		}
		return { result: decided.result, stat: decided.kind === "write" ? toStat(file) : null };
	}

	async createExclusive(path: string, content: string): Promise<boolean> {
		const normalized = normalizePath(path);
		if (this.app.vault.getAbstractFileByPath(normalized)) return false;
		await this.ensureParent(normalized);
		try {
			await this.app.vault.create(normalized, content);
			return true;
		} catch (error) {
			if (this.app.vault.getAbstractFileByPath(normalized)) return false;
			throw error;
		}
	}

	async list(folder: string): Promise<FolderEntry[] | null> {
		const target = folder === "" ? this.app.vault.getRoot() : this.app.vault.getFolderByPath(normalizePath(folder));
		if (!target) return null;
		return target.children
			.filter((child) => !child.name.startsWith("."))
			.map((child): FolderEntry =>
				child instanceof TFolder ? { path: child.path + "/", type: "folder" } : { path: child.path, type: "file", stat: child instanceof TFile ? toStat(child) : undefined },
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
		for (const ref of refs) this.registerEvent(ref);
		return () => {
			for (const ref of refs) vault.offref(ref);
		};
	}

	async activeNote(): Promise<string | null> {
		// The route checks the file is a note type it serves (a PDF can be the active file too).
		return this.app.workspace.getActiveFile()?.path ?? null;
	}

	/** Flushes editors showing `path`, so what the person typed is on disk before anything is compared. */
	private async saveOpenEditors(path: string): Promise<void> {
		const saves: Promise<void>[] = [];
		this.app.workspace.iterateAllLeaves((leaf) => {
			const view = leaf.view;
			if (view instanceof MarkdownView && view.file?.path === path) saves.push(view.save());
		});
		await Promise.all(saves);
	}

	private async ensureParent(path: string): Promise<void> {
		const slash = path.lastIndexOf("/");
		if (slash === -1) return;
		const parts = path.slice(0, slash).split("/");
		for (let i = 1; i <= parts.length; i++) {
			const folder = parts.slice(0, i).join("/");
			const existing = this.app.vault.getAbstractFileByPath(folder);
			if (existing instanceof TFolder) continue;
			if (existing) throw new VaultPathError(path, "file-in-the-way");
			await this.app.vault.createFolder(folder).catch((error: unknown) => {
				if (!(this.app.vault.getAbstractFileByPath(folder) instanceof TFolder)) throw error;
			});
		}
	}
}

function isFile(file: TAbstractFile): file is TFile {
	return file instanceof TFile;
}

function toStat(file: TFile): NoteStat {
	return { ctime: file.stat.ctime, mtime: file.stat.mtime, size: file.stat.size };
}
