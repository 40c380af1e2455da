/**
 * Obsidian's MetadataCache, as strict as the real one where search depends on it: a note is parsed only when the
 * vault announces it (`create`, `modify`, `rename`), so after a write the cache still describes the old text until
 * the event arrives; a note another program changed is parsed only once the watcher tells the vault. It keeps what
 * search reads (frontmatter without `position`, `frontmatterPosition`, body tags with their `#`, links, embeds and
 * frontmatter links) and `resolvedLinks`/`unresolvedLinks`, recomputed for every note when notes come or go.
 * Written on its own (with `yaml`), not from the plugin's core, so the two stacks check each other.
 */
import { readFileSync } from "fs";
import { join } from "path";
import { parse } from "yaml";
import { Events } from "./events";
import { TAbstractFile, TFile } from "./files";
import type { Vault } from "./vault";

interface Position {
	start: { line: number; col: number; offset: number };
	end: { line: number; col: number; offset: number };
}

export interface CachedMetadata {
	frontmatter?: Record<string, unknown>;
	frontmatterPosition?: Position;
	tags?: { tag: string; position: Position }[];
	links?: { link: string; original: string; position: Position }[];
	embeds?: { link: string; original: string; position: Position }[];
	frontmatterLinks?: { key: string; link: string; original: string }[];
}

const NOWHERE: Position = { start: { line: 0, col: 0, offset: 0 }, end: { line: 0, col: 0, offset: 0 } };

export class MetadataCache extends Events {
	private readonly caches = new Map<string, CachedMetadata>();
	resolvedLinks: Record<string, Record<string, number>> = {};
	unresolvedLinks: Record<string, Record<string, number>> = {};

	constructor(private readonly vault: Vault) {
		super();
		vault.listenInternally((name, ...args) => {
			const file = args[0] as TAbstractFile;
			if (name === "create" || name === "modify") this.parseFile(file);
			else if (name === "rename") this.renamed(file, args[1] as string);
			else if (name === "delete" && this.caches.delete(file.path)) this.resolveAll();
		});
	}

	private renamed(file: TAbstractFile, oldPath: string): void {
		const cache = this.caches.get(oldPath);
		this.caches.delete(oldPath);
		if (cache) this.caches.set(file.path, cache);
		this.resolveAll();
	}

	getFileCache(file: TFile): CachedMetadata | null {
		return this.caches.get(file.path) ?? null;
	}

	/** Obsidian's link resolution: an exact vault path (with or without .md), else the note of that name with the shortest path. */
	getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
		return resolveIn(this.vault.getFiles(), linkpath, sourcePath, this.vault);
	}

	private parseFile(file: TAbstractFile): void {
		if (!(file instanceof TFile) || file.extension !== "md") return;
		let text: string;
		try {
			text = readFileSync(join(this.vault.basePath, file.path), "utf8");
		} catch {
			return; // gone again before it was parsed
		}
		const cache = parseNote(text);
		this.caches.set(file.path, cache);
		this.resolveAll();
		this.trigger("changed", file, text, cache);
	}

	/**
	 * Resolves every note's links again, once for all the events of one turn (Obsidian resolves in the background too):
	 * a note that comes or goes can change what any other note's links reach.
	 */
	private resolveAll(): void {
		if (this.resolving) return;
		this.resolving = true;
		queueMicrotask(() => {
			this.resolving = false;
			const files = this.vault.getFiles();
			this.resolvedLinks = {};
			this.unresolvedLinks = {};
			for (const [source, cache] of this.caches) {
				const resolved: Record<string, number> = {};
				const unresolved: Record<string, number> = {};
				for (const { link } of [...(cache.links ?? []), ...(cache.embeds ?? []), ...(cache.frontmatterLinks ?? [])]) {
					const path = link.split("#")[0]!;
					const target = resolveIn(files, path, source, this.vault);
					if (target) resolved[target.path] = (resolved[target.path] ?? 0) + 1;
					else unresolved[path] = (unresolved[path] ?? 0) + 1;
				}
				this.resolvedLinks[source] = resolved;
				this.unresolvedLinks[source] = unresolved;
			}
			this.trigger("resolved");
		});
	}

	private resolving = false;
}

function resolveIn(files: readonly TFile[], linkpath: string, sourcePath: string, vault: Vault): TFile | null {
	if (linkpath === "") return vault.getFileByPath(sourcePath);
	const lower = linkpath.toLowerCase();
	const exact = files.find((file) => file.path.toLowerCase() === lower || file.path.toLowerCase() === lower + ".md");
	if (exact) return exact;
	const named = files
		.filter((file) => [lower, lower + ".md"].some((ending) => file.path.toLowerCase() === ending || file.path.toLowerCase().endsWith("/" + ending)))
		.sort((a, b) => a.path.length - b.path.length);
	return named[0] ?? null;
}

function parseNote(text: string): CachedMetadata {
	const cache: CachedMetadata = {};
	const lines = text.split(/\r?\n/);
	let body = 0;
	if (lines[0] === "---") {
		const close = lines.findIndex((line, index) => index > 0 && (line === "---" || line === "..."));
		if (close > 0) {
			body = close + 1;
			cache.frontmatterPosition = NOWHERE;
			try {
				const data: unknown = parse(lines.slice(1, close).join("\n"));
				if (typeof data === "object" && data !== null && !Array.isArray(data)) {
					cache.frontmatter = data as Record<string, unknown>;
					cache.frontmatterLinks = Object.entries(cache.frontmatter).flatMap(([key, value]) =>
						[value].flat().flatMap((item) => (typeof item === "string" ? [...item.matchAll(/\[\[([^\]|]+)(?:\|[^\]]*)?\]\]/g)].map((m) => ({ key, link: m[1]!, original: m[0] })) : [])),
					);
				}
			} catch {
				// Obsidian keeps no frontmatter it cannot parse.
			}
		}
	}
	let fenced = false;
	for (const line of lines.slice(body)) {
		if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
		if (fenced || /^\s*(```|~~~)/.test(line)) continue;
		const prose = line.replace(/`[^`]*`/g, "");
		for (const match of prose.matchAll(/(^|\s)(#[^\s#!"$%&'()*+,.:;<=>?@[\\\]^`{|}~]+)/g)) {
			if (!/^#\d+$/.test(match[2]!)) (cache.tags ??= []).push({ tag: match[2]!, position: NOWHERE });
		}
		for (const match of prose.matchAll(/(!?)\[\[([^\]|#]*)(#[^\]|]*)?(\|[^\]]*)?\]\]/g)) {
			(match[1] ? (cache.embeds ??= []) : (cache.links ??= [])).push({ link: match[2]! + (match[3] ?? ""), original: match[0], position: NOWHERE });
		}
		for (const match of prose.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(match[2]!)) continue;
			(match[1] ? (cache.embeds ??= []) : (cache.links ??= [])).push({ link: decodeURIComponent(match[2]!), original: match[0], position: NOWHERE });
		}
	}
	return cache;
}
