/** The simulated vault's raw file adapter (see DataAdapter). */
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync } from "fs";
import { access, appendFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "fs/promises";
import { dirname, join } from "path";

/**
 * The vault's raw file adapter (the plugin's own files under the config folder). Like Obsidian's: real asynchronous
 * I/O (so two sequences of calls interleave), `write` replaces in place (not atomic), `rename` refuses an existing
 * destination, and `exists` on a case-insensitive disk finds any spelling unless `sensitive` is asked for.
 */
export class DataAdapter {
	/**
	 * Set by the App: changes made through the adapter reach Obsidian's index the way other programs' do, when the
	 * watcher notices them (late), never at once.
	 */
	noticeLater: (path: string) => void = () => undefined;

	constructor(
		private readonly basePath: string,
		private readonly caseInsensitive = false,
	) {}
	async exists(path: string, sensitive?: boolean): Promise<boolean> {
		if (await present(join(this.basePath, path))) return true;
		if (!this.caseInsensitive || sensitive) return false;
		return this.spelledOtherwise(path) !== null;
	}
	/** What the disk says now (Obsidian's `Stat`), or null when nothing is there. */
	async stat(path: string): Promise<{ type: "file" | "folder"; ctime: number; mtime: number; size: number } | null> {
		const stats = await stat(join(this.basePath, path)).catch(() => null);
		if (!stats) return null;
		return {
			type: stats.isDirectory() ? "folder" : "file",
			ctime: Math.round(stats.birthtimeMs || stats.ctimeMs),
			mtime: Math.round(stats.mtimeMs),
			size: stats.size,
		};
	}
	/** A folder's files and folders, one level, as vault paths (Obsidian's `ListedFiles`); fails when it does not exist. */
	async list(path: string): Promise<{ files: string[]; folders: string[] }> {
		const entries = await readdir(join(this.basePath, path), { withFileTypes: true });
		const full = (name: string) => (path === "" || path === "/" ? name : `${path}/${name}`);
		return {
			files: entries.filter((entry) => !entry.isDirectory()).map((entry) => full(entry.name)),
			folders: entries.filter((entry) => entry.isDirectory()).map((entry) => full(entry.name)),
		};
	}
	async read(path: string): Promise<string> {
		return readFile(join(this.basePath, path), "utf8");
	}
	async write(path: string, data: string): Promise<void> {
		await mkdir(dirname(join(this.basePath, path)), { recursive: true });
		await writeFile(join(this.basePath, path), data);
	}
	/** Adds text at the end of a file (Obsidian's `append(normalizedPath, data, options?)`); like Node's, it creates a missing file. */
	async append(path: string, data: string, _options?: { ctime?: number; mtime?: number }): Promise<void> {
		await appendFile(join(this.basePath, path), data);
	}
	async mkdir(path: string): Promise<void> {
		await mkdir(join(this.basePath, path), { recursive: true });
	}
	async remove(path: string): Promise<void> {
		await rm(join(this.basePath, path), { force: true });
	}
	async copy(from: string, to: string): Promise<void> {
		if (existsSync(join(this.basePath, to))) throw new Error("Destination file already exists!");
		copyFileSync(join(this.basePath, from), join(this.basePath, to));
	}
	async rename(from: string, to: string): Promise<void> {
		if (await present(join(this.basePath, to))) throw new Error("Destination file already exists!");
		await rename(join(this.basePath, from), join(this.basePath, to));
	}
	/** Moves a file into the vault's `.trash` folder (a numbered name when taken). */
	async trashLocal(path: string): Promise<void> {
		const folder = join(this.basePath, ".trash");
		mkdirSync(folder, { recursive: true });
		const name = baseName(path);
		let target = join(folder, name);
		for (let n = 2; existsSync(target); n++) target = join(folder, `${name} ${n}`);
		renameSync(join(this.basePath, path), target);
		this.noticeLater(path);
	}
	/** The path as the disk spells it, when only another spelling (case) of `path` exists. */
	private spelledOtherwise(path: string): string | null {
		const parts = path.split("/");
		let folder = this.basePath;
		for (const part of parts) {
			const entries = existsSync(folder) ? readdirSync(folder) : [];
			const found = entries.find((entry) => entry.toLowerCase() === part.toLowerCase());
			if (found === undefined) return null;
			folder = join(folder, found);
		}
		return folder;
	}
}

function baseName(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

function present(absolute: string): Promise<boolean> {
	return access(absolute).then(
		() => true,
		() => false,
	);
}
