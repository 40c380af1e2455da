/**
 * StateStorage in the plugin's own folder (`<configDir>/plugins/revision-guard/`), through the vault adapter. A
 * durable file is saved so that a complete copy exists at every instant: the new content is written beside it first,
 * then moved over it (or, where the adapter will not move over an existing file, written over it), and only then is
 * the copy removed. Every save has a copy of its own (`name.<instance>-<n>.tmp`), so no two saves, of this instance or
 * of another, ever write or move the same copy. Loading prefers the newest complete copy while one exists, and
 * retries when it meets a save half way, so a crash never finds the state missing. Copies found when a folder is
 * first used were left by a crash: the plugin instance before this one has finished saving by then (see
 * obsidian-state-turn.ts), and the next save of their file removes them.
 */
import { normalizePath, type DataAdapter } from "obsidian";
import { SLICE_MS, type YieldToHost } from "../core/steps";
import type { StateStorage } from "./gateway";
import type { StateTurn } from "./obsidian-state-turn";

/** Reads retried when a concurrent save moved a file away between looking and reading. */
const READ_ATTEMPTS = 5;

export class ObsidianStateStorage implements StateStorage {
	/** Files known to exist (appended to since they were last removed), so an append is one adapter call. */
	private readonly appendable = new Set<string>();
	/** Part of every copy's name: random per instance, so copies of two instances never share a name. */
	private readonly instance = Math.random().toString(36).slice(2, 10).padEnd(8, "0");
	private copies = 0;
	/** The copy of the newest save of each file under way here: the newest complete content, once written whole. */
	private readonly saving = new Map<string, string>();
	/** For each folder, once looked at: the copies no save here is writing (left by a save that never finished). */
	private readonly leftovers = new Map<string, Promise<Set<string>>>();

	constructor(
		private readonly adapter: DataAdapter,
		/** The plugin folder, e.g. `manifest.dir`. */
		private readonly folder: string,
		/** This instance's turn at the folder, handed on at close (see obsidian-state-turn.ts). */
		private readonly turn?: StateTurn,
		/** Gives Obsidian a turn while a large state file is handed over line by line (readLines). */
		private readonly yieldToHost?: YieldToHost,
	) {}

	async read(name: string, options: { durable?: boolean } = {}): Promise<string | null> {
		const path = this.pathOf(name);
		// A cache is written in place, never through a copy.
		if (options.durable === false) return this.readIfExists(path);
		for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
			try {
				// A copy is the newest complete content while it parses (it is written whole first).
				for (const copy of await this.copiesOf(path)) {
					const text = await this.readIfExists(copy);
					if (text !== null && isJson(text)) return text;
				}
				return await this.readIfExists(path);
			} catch (error) {
				if (attempt === READ_ATTEMPTS) throw error;
			}
		}
		return null;
	}

	/**
	 * The file read as `read` reads it (the adapter reads files whole), then handed over a line at a time, with a turn
	 * for Obsidian every few milliseconds: a large vault's history is tens of megabytes, which one JSON.parse would
	 * hold Obsidian's window for a noticeable moment to read. No line is too long to hand over: the text is held already.
	 */
	async readLines(name: string, line: (text: string) => boolean): Promise<boolean> {
		const text = await this.read(name);
		if (text === null) return false;
		let sliceStart = performance.now();
		for (let start = 0; start < text.length;) {
			const newline = text.indexOf("\n", start);
			const end = newline === -1 ? text.length : newline;
			if (!line(text.slice(start, end))) return true;
			start = end + 1;
			if (this.yieldToHost && performance.now() - sliceStart >= SLICE_MS) {
				await this.yieldToHost();
				sliceStart = performance.now();
			}
		}
		return true;
	}

	async write(name: string, content: string, options: { durable?: boolean } = {}): Promise<void> {
		const path = this.pathOf(name);
		const folder = folderOf(path);
		if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
		// Content-addressed caches are verified when read; they need no copy.
		if (options.durable === false) return this.adapter.write(path, content);
		const left = await this.leftoversIn(folder);
		const copy = `${path}.${this.instance}-${(++this.copies).toString(36)}.tmp`;
		this.saving.set(path, copy);
		try {
			await this.adapter.write(copy, content);
			if (!(await this.moveOver(copy, path))) {
				await this.adapter.write(path, content);
				await this.adapter.remove(copy);
			}
		} catch (error) {
			// The copy may be all that is complete now (a failed write over the file): keep it, as a crash would.
			left.add(copy);
			throw error;
		} finally {
			if (this.saving.get(path) === copy) this.saving.delete(path);
		}
		// The file now holds what every older copy held, or more; a copy left behind would be read before it.
		for (const stale of [...left].filter((file) => isCopyOf(file, path))) {
			await this.removeIfExists(stale);
			left.delete(stale);
		}
		// A copy an older version left under its one fixed name.
		await this.removeIfExists(`${path}.tmp`);
	}

	/** As durable as the adapter's own writes (Obsidian's adapter does not fsync). */
	async append(name: string, text: string): Promise<void> {
		const path = this.pathOf(name);
		if (this.appendable.has(path)) return this.adapter.append(path, text);
		const folder = folderOf(path);
		if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
		// Not every adapter creates a missing file on append; a new file is written whole.
		if (await this.adapter.exists(path)) await this.adapter.append(path, text);
		else await this.adapter.write(path, text);
		this.appendable.add(path);
	}

	async remove(name: string): Promise<void> {
		const path = this.pathOf(name);
		this.appendable.delete(path);
		await this.removeIfExists(path);
	}

	/** Nothing more will be saved through this storage: the next plugin instance may read the state. */
	async close(): Promise<void> {
		await this.turn?.release();
	}

	/** The copies of `path` to read before it, newest first: this instance's save under way, those a crash left, an older version's. */
	private async copiesOf(path: string): Promise<string[]> {
		const own = this.saving.get(path);
		const left = [...(await this.leftoversIn(folderOf(path)))].filter((file) => isCopyOf(file, path));
		const stamped = await Promise.all(
			left.map(async (file) => ({ file, mtime: (await this.adapter.stat(file))?.mtime ?? 0 })),
		);
		const newestFirst = stamped.sort((a, b) => b.mtime - a.mtime).map(({ file }) => file);
		return [...(own === undefined ? [] : [own]), ...newestFirst, `${path}.tmp`];
	}

	/** Copies in `folder` when this instance first used it: no save of this instance is writing them. */
	private leftoversIn(folder: string): Promise<Set<string>> {
		let found = this.leftovers.get(folder);
		if (!found) {
			found = this.listCopies(folder);
			this.leftovers.set(folder, found);
		}
		return found;
	}

	private async listCopies(folder: string): Promise<Set<string>> {
		if (!(await this.adapter.exists(folder))) return new Set();
		return new Set((await this.adapter.list(folder)).files.filter((file) => COPY_NAME.test(file)));
	}

	/** Moves `from` over `to` in one step where the adapter can; false when it refuses because `to` exists. */
	private async moveOver(from: string, to: string): Promise<boolean> {
		try {
			await this.adapter.rename(from, to);
			return true;
		} catch (error) {
			// Looked at after the refusal: another save may have put the first `to` in place meanwhile.
			if (await this.adapter.exists(to)) return false;
			throw error;
		}
	}

	private async removeIfExists(path: string): Promise<void> {
		if (await this.adapter.exists(path)) await this.adapter.remove(path);
	}

	private async readIfExists(path: string): Promise<string | null> {
		if (!(await this.adapter.exists(path))) return null;
		return this.adapter.read(path);
	}

	private pathOf(name: string): string {
		return normalizePath(`${this.folder}/${name}`);
	}
}

/** A save's own copy: `<file>.<instance>-<n>.tmp`. */
const COPY_NAME = /\.[0-9a-z]+-[0-9a-z]+\.tmp$/;

function isCopyOf(file: string, path: string): boolean {
	return (
		file.startsWith(`${path}.`) && COPY_NAME.test(file) && !file.slice(path.length + 1, -".tmp".length).includes(".")
	);
}

function folderOf(path: string): string {
	return path.slice(0, path.lastIndexOf("/"));
}

function isJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}
