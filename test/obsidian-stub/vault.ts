/**
 * A Vault over a real temporary folder, as strict as Obsidian where it matters:
 * - its own writes (create, modify, process, rename, trash) change the disk and the index at once, but their events
 *   arrive asynchronously, never inside the write;
 * - edits by other programs (`outside`, see watcher.ts) reach the index only when the simulated watcher notices them:
 *   late, with jitter, sometimes twice; until then `getFileByPath` does not know them;
 * - on a case-insensitive disk (`caseInsensitive`), `adapter.exists` finds any spelling, and `create` refuses one
 *   ("File already exists."), while the index stays case-sensitive;
 * - the three "Deleted files" options (`setConfig("trashOption", …)`) decide what `fileManager.trashFile` does;
 * - every write of a note's file is logged (`writeLog`), so tests can count them and see what was written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "fs";
import { join } from "path";
import { DataAdapter } from "./adapter";
import type { SimClock } from "./clock";
import { Events } from "./events";
import { normalizePath, TAbstractFile, TFile, TFolder } from "./files";

export type TrashOption = "system" | "local" | "none";

export interface VaultOptions {
	caseInsensitive?: boolean;
}

export interface WriteRecord {
	path: string;
	content: string;
	/** Which vault call wrote it. */
	via: "create" | "modify" | "process";
}

export class Vault extends Events {
	configDir = ".obsidian";
	readonly adapter: DataAdapter;
	private readonly files = new Map<string, TAbstractFile>();
	private readonly root = new TFolder("/");
	private readonly config: Record<string, unknown> = { trashOption: "local" };
	/** Counts process() calls, so tests can check writes went through it. */
	processCalls = 0;
	/** Every write of a file in the vault through the vault API. */
	readonly writeLog: WriteRecord[] = [];
	/** Called after the vault itself changes a file (so open editors can reload); set by the app. */
	onFileWritten: (file: TFile) => void = () => undefined;
	/** Set by the App: a file left the vault (its views close), just before the `delete` event. */
	onFileRemoved: (file: TAbstractFile) => void = () => undefined;
	/**
	 * Obsidian's own indexes (the metadata cache) hear every vault event, after the plugins' listeners, without being
	 * listeners a plugin must detach (so `listenerCount` counts only what a plugin registered).
	 */
	readonly internalListeners: ((name: string, ...args: unknown[]) => void)[] = [];

	constructor(
		readonly basePath: string,
		readonly clock: SimClock,
		readonly options: VaultOptions = {},
	) {
		super();
		this.adapter = new DataAdapter(basePath, options.caseInsensitive === true);
		mkdirSync(basePath, { recursive: true });
		this.files.set("/", this.root);
	}

	/** Indexes what is on disk, firing `create` for each file as Obsidian does while it loads (before layout-ready). */
	/** Files found while loading, announced as a flood of `create` events before layout-ready (see App). */
	private startupFlood: TAbstractFile[] | null = null;

	loadFromDisk(): void {
		this.startupFlood = [];
		this.scan("");
	}

	/** Obsidian indexes the vault while plugins load: a `create` event for every file, before layout-ready. */
	deliverStartupFlood(): void {
		const flood = this.startupFlood ?? [];
		this.startupFlood = null;
		for (const file of flood) this.trigger("create", file);
	}

	override trigger(name: string, ...args: unknown[]): void {
		super.trigger(name, ...args);
		for (const listener of this.internalListeners) listener(name, ...args);
	}

	getName(): string {
		return baseName(this.basePath);
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
	getConfig(key: string): unknown {
		return this.config[key];
	}
	/** Test helper: Obsidian's settings (e.g. "trashOption": "system" | "local" | "none"). */
	setConfig(key: string, value: unknown): void {
		this.config[key] = value;
	}

	async read(file: TFile): Promise<string> {
		return readFileSync(this.abs(file.path), "utf8");
	}
	async cachedRead(file: TFile): Promise<string> {
		return this.read(file);
	}

	async create(path: string, data: string): Promise<TFile> {
		const normalized = normalizePath(path);
		// Obsidian refuses to create over anything on disk, indexed or not, in any spelling the disk treats as equal.
		if (this.files.has(normalized) || (await this.adapter.exists(normalized))) throw new Error("File already exists.");
		const parent = this.getFolderByPath(parentOf(normalized));
		if (!parent) throw new Error(`Folder does not exist: ${parentOf(normalized)}`);
		this.writeFile(normalized, data, "create");
		const file = this.index(new TFile(normalized), parent);
		this.later("create", file);
		return file;
	}

	async createFolder(path: string): Promise<TFolder> {
		const normalized = normalizePath(path);
		if (this.files.has(normalized)) throw new Error("Folder already exists.");
		const parent = this.getFolderByPath(parentOf(normalized));
		if (!parent) throw new Error("Parent folder does not exist.");
		mkdirSync(this.abs(normalized));
		const folder = this.index(new TFolder(normalized), parent);
		this.later("create", folder);
		return folder;
	}

	async modify(file: TFile, data: string): Promise<void> {
		this.writeFile(file.path, data, "modify");
		this.refreshStat(file);
		this.onFileWritten(file);
		this.later("modify", file);
	}

	/** Like Obsidian: the callback runs synchronously against the file's current content, then the result is written. */
	async process(file: TFile, fn: (data: string) => string): Promise<string> {
		this.processCalls++;
		const data = readFileSync(this.abs(file.path), "utf8");
		const next = fn(data);
		if (next !== data) {
			this.writeFile(file.path, next, "process");
			this.refreshStat(file);
			this.onFileWritten(file);
			this.later("modify", file);
		}
		return next;
	}

	/** Renames a file or folder; a folder's descendants each get their own `rename` event, as in Obsidian. */
	async rename(file: TAbstractFile, newPath: string): Promise<void> {
		const normalized = normalizePath(newPath);
		if (this.files.has(normalized)) throw new Error("Destination file already exists!");
		renameSync(this.abs(file.path), this.abs(normalized));
		const moved = this.descendants(file);
		const oldPaths = moved.map((item) => item.path);
		for (const item of moved) this.files.delete(item.path);
		if (file.parent) file.parent.children = file.parent.children.filter((child) => child !== file);
		for (const item of moved) item.path = normalized + item.path.slice(oldPaths[0]!.length);
		file.parent = this.getFolderByPath(parentOf(normalized))!;
		file.parent.children.push(file);
		for (const item of moved) this.files.set(item.path, item);
		moved.forEach((item, i) => this.later("rename", item, oldPaths[i]));
	}

	/** Moves to the system trash, or (`system` false, or when the system trash cannot be used) to `.trash/`. */
	async trash(file: TAbstractFile, system: boolean): Promise<void> {
		await this.removeFile(file, system ? "system" : "local");
	}

	async delete(file: TAbstractFile): Promise<void> {
		await this.removeFile(file, "none");
	}

	/** Removes a file as the trash option says: to the system trash, to `.trash/`, or for good. Emits `delete`. */
	async removeFile(file: TAbstractFile, option: TrashOption): Promise<void> {
		const from = this.abs(file.path);
		if (option === "none") rmSync(from, { recursive: true, force: true });
		else {
			const folder =
				option === "system"
					? join(this.basePath, "..", `${baseName(this.basePath)}.system-trash`)
					: join(this.basePath, ".trash");
			mkdirSync(folder, { recursive: true });
			let target = join(folder, file.name);
			for (let n = 2; existsSync(target); n++) target = join(folder, `${file.name} ${n}`);
			renameSync(from, target);
		}
		for (const item of this.descendants(file)) this.files.delete(item.path);
		if (file.parent) file.parent.children = file.parent.children.filter((child) => child !== file);
		this.later("delete", file);
	}

	/** Called by the watcher once it noticed an outside change at `path` (see watcher.ts). */
	noticed(path: string): void {
		const normalized = normalizePath(path);
		const indexed = this.files.get(normalized);
		const onDisk = existsSync(this.abs(normalized));
		if (!onDisk) {
			if (!indexed) return;
			for (const item of this.descendants(indexed)) this.files.delete(item.path);
			if (indexed.parent) indexed.parent.children = indexed.parent.children.filter((child) => child !== indexed);
			this.onFileRemoved(indexed);
			this.trigger("delete", indexed);
			return;
		}
		if (statSync(this.abs(normalized)).isDirectory()) {
			if (!indexed) this.scanOne(normalized);
			return;
		}
		if (!indexed) {
			const parent = this.getFolderByPath(parentOf(normalized)) ?? this.ensureFolders(parentOf(normalized));
			this.trigger("create", this.index(new TFile(normalized), parent));
			return;
		}
		if (indexed instanceof TFile) {
			this.refreshStat(indexed);
			this.onFileWritten(indexed);
			this.trigger("modify", indexed);
		}
	}

	/** Everything a file (or a folder and its contents) is, itself first. */
	private descendants(file: TAbstractFile): TAbstractFile[] {
		if (!(file instanceof TFolder)) return [file];
		return [file, ...file.children.flatMap((child) => this.descendants(child))];
	}

	private writeFile(path: string, content: string, via: WriteRecord["via"]): void {
		writeFileSync(this.abs(path), content);
		this.writeLog.push({ path, content, via });
	}

	/** Events of the vault's own changes come after the call that caused them, never inside it. */
	private later(name: string, ...args: unknown[]): void {
		queueMicrotask(() => {
			if (name === "delete") this.onFileRemoved(args[0] as TAbstractFile);
			this.trigger(name, ...args);
		});
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
	private refreshStat(file: TFile): void {
		const stats = statSync(this.abs(file.path));
		file.stat = {
			ctime: Math.round(stats.birthtimeMs || stats.ctimeMs),
			mtime: Math.round(stats.mtimeMs),
			size: stats.size,
		};
	}
	private ensureFolders(path: string): TFolder {
		if (path === "/" || path === "") return this.root;
		const existing = this.getFolderByPath(path);
		if (existing) return existing;
		return this.index(new TFolder(path), this.ensureFolders(parentOf(path)));
	}
	private scanOne(folder: string): void {
		const created = this.index(new TFolder(folder), this.ensureFolders(parentOf(folder)));
		this.trigger("create", created);
		this.scan(folder);
	}
	private scan(folder: string): void {
		for (const entry of readdirSync(this.abs(folder), { withFileTypes: true })) {
			if (entry.name.startsWith(".")) continue;
			const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
			const parent = this.getFolderByPath(folder === "" ? "/" : folder)!;
			const found = this.index(entry.isDirectory() ? new TFolder(path) : new TFile(path), parent);
			if (this.startupFlood) this.startupFlood.push(found);
			else this.later("create", found);
			if (entry.isDirectory()) this.scan(path);
		}
	}
}

function parentOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "/" : path.slice(0, slash);
}

function baseName(path: string): string {
	return path.slice(path.replace(/\/+$/, "").lastIndexOf("/") + 1);
}
