/**
 * Obsidian's metadata cache, as strict as it is where our answers depend on it:
 * - it indexes what is saved (a file's bytes), never an editor's unsaved buffer, markdown files only;
 * - it lags: a file is indexed after the vault's event for it, never inside the write (`settled()` waits for it);
 * - links resolve by Obsidian's rules (an exact path, then the linking note's folder, then the shortest path), and
 *   `resolvedLinks`/`unresolvedLinks` are resolved again whenever a file appears or goes.
 * Its parser is deliberately simple (wikilinks, markdown links to notes, frontmatter tags, inline #tags outside ```
 * fences): tests keep their
 * notes plain. Written apart from the plugin's own parser, so a test compares two readings of the same rules.
 */
import { readFileSync } from "fs";
import { join } from "path";
import { parse } from "yaml";
import { Events } from "./events";
import type { TAbstractFile, TFile } from "./files";
import type { Vault } from "./vault";

export interface CachedMetadata {
	frontmatter?: Record<string, unknown>;
	tags?: { tag: string }[];
	links?: { link: string }[];
}

export class MetadataCache extends Events {
	resolvedLinks: Record<string, Record<string, number>> = {};
	unresolvedLinks: Record<string, Record<string, number>> = {};
	private readonly caches = new Map<string, CachedMetadata>();
	private pending = 0;
	private idle: (() => void)[] = [];

	constructor(private readonly vault: Vault) {
		super();
		vault.internalListeners.push((name, ...args) => {
			const file = args[0] as TAbstractFile;
			if (name === "create") this.later(() => this.index(file, true));
			else if (name === "modify") this.later(() => this.index(file, false));
			else if (name === "delete") this.later(() => this.forget(file.path));
			else if (name === "rename") {
				this.later(() => {
					this.forget(args[1] as string);
					this.index(file, true);
				});
			}
		});
	}

	getFileCache(file: TFile): CachedMetadata | null {
		return this.caches.get(file.path) ?? null;
	}

	getCache(path: string): CachedMetadata | null {
		return this.caches.get(path) ?? null;
	}

	getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
		const files = this.vault.getFiles();
		const wanted = linkpath.toLowerCase();
		const forms =
			/\.[^/.]+$/.test(wanted) && !wanted.endsWith(".md")
				? [wanted, `${wanted}.md`]
				: wanted.endsWith(".md")
					? [wanted]
					: [`${wanted}.md`];
		for (const form of forms) {
			const exact = files.find((file) => file.path.toLowerCase() === form);
			if (exact) return exact;
			const matches = files.filter((file) => file.path.toLowerCase().endsWith(`/${form}`));
			if (matches.length === 0) continue;
			const folder = sourcePath.includes("/") ? sourcePath.slice(0, sourcePath.lastIndexOf("/")) : "";
			const beside = matches.filter((file) => (file.parent?.path === "/" ? "" : file.parent?.path) === folder);
			return (beside.length > 0 ? beside : matches).sort(
				(a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path),
			)[0]!;
		}
		return null;
	}

	/** Test helper: resolves once every change the vault announced so far is indexed. */
	settled(): Promise<void> {
		return this.pending === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
	}

	/** Indexing happens a moment after the vault's event, as Obsidian's worker does it. */
	private later(work: () => void): void {
		this.pending++;
		setTimeout(() => {
			try {
				work();
			} finally {
				if (--this.pending === 0) for (const resolve of this.idle.splice(0)) resolve();
			}
		}, 1);
	}

	private index(file: TAbstractFile, filesChanged: boolean): void {
		const indexed = this.vault.getFileByPath(file.path);
		if (!indexed) return;
		if (indexed.extension !== "md") {
			// An attachment is no note to parse, but links to it resolve from now on (`[[data.csv]]`, `![[pic.png]]`).
			if (filesChanged) {
				this.resolveAll();
				this.trigger("resolved");
			}
			return;
		}
		let content: string;
		try {
			content = readFileSync(join(this.vault.basePath, indexed.path), "utf8");
		} catch {
			return;
		}
		this.caches.set(indexed.path, parseNote(content));
		if (filesChanged) this.resolveAll();
		else this.resolve(indexed.path);
		this.trigger("changed", indexed, content, this.caches.get(indexed.path));
		this.trigger("resolved");
	}

	private forget(path: string): void {
		this.caches.delete(path);
		delete this.resolvedLinks[path];
		delete this.unresolvedLinks[path];
		this.resolveAll();
		this.trigger("resolved");
	}

	private resolveAll(): void {
		for (const path of this.caches.keys()) this.resolve(path);
	}

	private resolve(path: string): void {
		const resolved: Record<string, number> = {};
		const unresolved: Record<string, number> = {};
		for (const { link } of this.caches.get(path)?.links ?? []) {
			const target = this.getFirstLinkpathDest(link, path);
			if (target) resolved[target.path] = (resolved[target.path] ?? 0) + 1;
			else unresolved[link] = (unresolved[link] ?? 0) + 1;
		}
		this.resolvedLinks[path] = resolved;
		this.unresolvedLinks[path] = unresolved;
	}
}

/** Obsidian's getAllTags: frontmatter tags then inline ones, each with its '#', every use (not made unique). */
export function getAllTags(cache: CachedMetadata): string[] | null {
	const tags: string[] = [];
	for (const [key, value] of Object.entries(cache.frontmatter ?? {})) {
		if (!/^tags?$/i.test(key)) continue;
		const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,\s]+/) : [];
		for (const item of items)
			if (typeof item === "string" && item.trim() !== "") tags.push(`#${item.trim().replace(/^#/, "")}`);
	}
	for (const { tag } of cache.tags ?? []) tags.push(tag);
	return tags;
}

function parseNote(content: string): CachedMetadata {
	const cache: CachedMetadata = {};
	let body = content;
	const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(content);
	if (frontmatter) {
		body = content.slice(frontmatter[0].length);
		try {
			const data: unknown = parse(frontmatter[1]!);
			if (data && typeof data === "object") cache.frontmatter = data as Record<string, unknown>;
		} catch {
			// Obsidian indexes a note with broken frontmatter as one without.
		}
	}
	const tags: { tag: string }[] = [];
	const links: { link: string }[] = [];
	let inFence = false;
	for (const line of body.split(/\r?\n/)) {
		if (/^\s*```/.test(line)) inFence = !inFence;
		if (inFence || /^\s*```/.test(line)) continue;
		for (const match of line.matchAll(/(?:^|\s)#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)/gu))
			tags.push({ tag: `#${match[1]}` });
		for (const match of line.matchAll(/\[\[([^\]|#]*)[^\]]*\]\]/g))
			if (match[1]!.trim() !== "") links.push({ link: match[1]!.trim() });
		// Markdown links to notes count as links too (from the vault root, spaces as %20), as Obsidian indexes them.
		for (const match of line.matchAll(/\]\(([^)\s]+\.md)\)/g)) links.push({ link: safeDecode(match[1]!) });
	}
	if (tags.length > 0) cache.tags = tags;
	if (links.length > 0) cache.links = links;
	return cache;
}

function safeDecode(text: string): string {
	try {
		return decodeURI(text);
	} catch {
		return text;
	}
}
