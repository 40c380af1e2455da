/**
 * StateStorage in the plugin's own folder (`<configDir>/plugins/revision-guard/`), through the vault adapter. A
 * durable file is saved so that a complete copy exists at every instant: the new content is written beside it
 * (`name.tmp`) first, then moved over it (or, where the adapter will not move over an existing file, written over
 * it), and only then is the copy removed. Loading prefers that copy while it exists, and retries when it meets a
 * save half way, so a quick disable and enable, or a crash, never finds the state missing.
 */
import { normalizePath, type DataAdapter } from "obsidian";
import type { StateStorage } from "./gateway";

/** Reads retried when a concurrent save moved a file away between looking and reading. */
const READ_ATTEMPTS = 5;

export class ObsidianStateStorage implements StateStorage {
	/** Files known to exist (appended to since they were last removed), so an append is one adapter call. */
	private readonly appendable = new Set<string>();

	constructor(
		private readonly adapter: DataAdapter,
		/** The plugin folder, e.g. `manifest.dir`. */
		private readonly folder: string,
	) {}

	async read(name: string): Promise<string | null> {
		const path = this.pathOf(name);
		for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
			try {
				// A copy beside the file is the newest complete content while it parses (it is written whole first).
				const copy = await this.readIfExists(`${path}.tmp`);
				if (copy !== null && isJson(copy)) return copy;
				return await this.readIfExists(path);
			} catch (error) {
				if (attempt === READ_ATTEMPTS) throw error;
			}
		}
		return null;
	}

	async write(name: string, content: string, options: { durable?: boolean } = {}): Promise<void> {
		const path = this.pathOf(name);
		const folder = path.slice(0, path.lastIndexOf("/"));
		if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
		// Content-addressed caches are verified when read; they need no copy.
		if (options.durable === false) return this.adapter.write(path, content);
		const copy = `${path}.tmp`;
		await this.adapter.write(copy, content);
		if (!(await this.moveOver(copy, path))) {
			await this.adapter.write(path, content);
			await this.adapter.remove(copy);
		}
	}

	/** As durable as the adapter's own writes (Obsidian's adapter does not fsync). */
	async append(name: string, text: string): Promise<void> {
		const path = this.pathOf(name);
		if (this.appendable.has(path)) return this.adapter.append(path, text);
		const folder = path.slice(0, path.lastIndexOf("/"));
		if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
		// Not every adapter creates a missing file on append; a new file is written whole.
		if (await this.adapter.exists(path)) await this.adapter.append(path, text);
		else await this.adapter.write(path, text);
		this.appendable.add(path);
	}

	async remove(name: string): Promise<void> {
		const path = this.pathOf(name);
		this.appendable.delete(path);
		if (await this.adapter.exists(path)) await this.adapter.remove(path);
	}

	/** Moves `from` over `to` in one step where the adapter can; false when it refuses because `to` exists. */
	private async moveOver(from: string, to: string): Promise<boolean> {
		if (await this.adapter.exists(to)) {
			try {
				await this.adapter.rename(from, to);
				return true;
			} catch {
				return false;
			}
		}
		await this.adapter.rename(from, to);
		return true;
	}

	private async readIfExists(path: string): Promise<string | null> {
		if (!(await this.adapter.exists(path))) return null;
		return this.adapter.read(path);
	}

	private pathOf(name: string): string {
		return normalizePath(`${this.folder}/${name}`);
	}
}

function isJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}
