/** A Vault over a real temporary folder: reads and writes files there and emits Obsidian's vault events. */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from "fs";
import { dirname, join } from "path";
import { Events } from "./events";
import { normalizePath, TAbstractFile, TFile, TFolder } from "./files";

export class Vault extends Events {
	configDir = ".obsidian";
	readonly adapter: DataAdapter;
	private readonly files = new Map<string, TAbstractFile>();
	private readonly root = new TFolder("/");
	/** Counts process() calls, so tests can check writes went through it. */
	processCalls = 0;

	constructor(readonly basePath: string) {
		super();
		this.adapter = new DataAdapter(basePath);
		mkdirSync(basePath, { recursive: true });
		this.files.set("/", this.root);
		this.scan("");
	}

	getRoot(): TFolder {
		return this.root;
	}
	getAbstractFileByPath(path: string): TAbstractFile | null {
		return this.files.get(normalizePath(path)) ?? null;
	}
	getFileByPath(path: string): TFile | null {
		const file = this.getAbstractFileByPath(path);
		return file instanceof TFile ? file : null;
	}
	getFolderByPath(path: string): TFolder | null {
		const folder = this.getAbstractFileByPath(path);
		return folder instanceof TFolder ? folder : null;
	}
	getFiles(): TFile[] {
		return [...this.files.values()].filter((file): file is TFile => file instanceof TFile);
	}
	getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((file) => file.extension === "md");
	}

	async read(file: TFile): Promise<string> {
		return readFileSync(this.abs(file.path), "utf8");
	}
	async cachedRead(file: TFile): Promise<string> {
		return this.read(file);
	}

	async create(path: string, data: string): Promise<TFile> {
		const normalized = normalizePath(path);
		if (this.files.has(normalized) || existsSync(this.abs(normalized))) throw new Error("File already exists.");
		const parent = this.getFolderByPath(parentOf(normalized));
		if (!parent) throw new Error(`Folder does not exist: ${parentOf(normalized)}`);
		writeFileSync(this.abs(normalized), data);
		const file = this.index(new TFile(normalized), parent);
		this.trigger("create", file);
		return file;
	}

	async createFolder(path: string): Promise<TFolder> {
		const normalized = normalizePath(path);
		if (this.files.has(normalized)) throw new Error("Folder already exists.");
		const parent = this.getFolderByPath(parentOf(normalized));
		if (!parent) throw new Error("Parent folder does not exist.");
		mkdirSync(this.abs(normalized));
		const folder = this.index(new TFolder(normalized), parent);
		this.trigger("create", folder);
		return folder;
	}

	async modify(file: TFile, data: string): Promise<void> {
		writeFileSync(this.abs(file.path), data);
		this.refreshStat(file);
		this.trigger("modify", file);
	}

	/** Like Obsidian: the callback runs synchronously against the current content, then the result is written. */
	async process(file: TFile, fn: (data: string) => string): Promise<string> {
		this.processCalls++;
		const data = readFileSync(this.abs(file.path), "utf8");
		const next = fn(data);
		if (next !== data) await this.modify(file, next);
		return next;
	}

	async rename(file: TAbstractFile, newPath: string): Promise<void> {
		const oldPath = file.path;
		const normalized = normalizePath(newPath);
		renameSync(this.abs(oldPath), this.abs(normalized));
		this.unindex(file);
		file.path = normalized;
		this.index(file, this.getFolderByPath(parentOf(normalized))!);
		this.trigger("rename", file, oldPath);
	}

	/** Test helper: removes a file the way a trash or a sync would, emitting `delete`. */
	async removeFile(file: TAbstractFile, trashTo?: string): Promise<void> {
		if (trashTo) {
			mkdirSync(dirname(this.abs(trashTo)), { recursive: true });
			renameSync(this.abs(file.path), this.abs(trashTo));
		} else rmSync(this.abs(file.path), { recursive: true, force: true });
		this.unindex(file);
		this.trigger("delete", file);
	}

	private abs(path: string): string {
		return join(this.basePath, path === "/" ? "" : path);
	}
	private index<T extends TAbstractFile>(file: T, parent: TFolder): T {
		file.parent = parent;
		parent.children.push(file);
		this.files.set(file.path, file);
		if (file instanceof TFile) this.refreshStat(file);
		return file;
	}
	private unindex(file: TAbstractFile): void {
		this.files.delete(file.path);
		if (file.parent) file.parent.children = file.parent.children.filter((child) => child !== file);
	}
	private refreshStat(file: TFile): void {
		const stats = statSync(this.abs(file.path));
		file.stat = { ctime: Math.round(stats.birthtimeMs || stats.ctimeMs), mtime: Math.round(stats.mtimeMs), size: stats.size };
	}
	private scan(folder: string): void {
		for (const entry of readdirSync(this.abs(folder), { withFileTypes: true })) {
			if (entry.name.startsWith(".")) continue;
			const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
			const parent = this.getFolderByPath(folder === "" ? "/" : folder)!;
			if (entry.isDirectory()) {
				this.index(new TFolder(path), parent);
				this.scan(path);
			} else this.index(new TFile(path), parent);
		}
	}
}

function parentOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "/" : path.slice(0, slash);
}

/** The vault's raw file adapter (used for the plugin's own files under the config folder). */
export class DataAdapter {
	constructor(private readonly basePath: string) {}
	async exists(path: string): Promise<boolean> {
		return existsSync(join(this.basePath, path));
	}
	async read(path: string): Promise<string> {
		return readFileSync(join(this.basePath, path), "utf8");
	}
	async write(path: string, data: string): Promise<void> {
		mkdirSync(dirname(join(this.basePath, path)), { recursive: true });
		writeFileSync(join(this.basePath, path), data);
	}
	async mkdir(path: string): Promise<void> {
		mkdirSync(join(this.basePath, path), { recursive: true });
	}
	async remove(path: string): Promise<void> {
		rmSync(join(this.basePath, path), { force: true });
	}
	async rename(from: string, to: string): Promise<void> {
		renameSync(join(this.basePath, from), join(this.basePath, to));
	}
}
