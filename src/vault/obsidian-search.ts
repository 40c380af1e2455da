/**
 * Search inside Obsidian, with Obsidian's own means: its `prepareSimpleSearch`, its cached reads, its metadata cache
 * (the frontmatter, tags and links Obsidian parsed) and, when the person has it installed and enabled, Dataview's
 * query API. What the search does with them is decided in the search service, the same for both hosts.
 */
import { normalizePath, prepareSimpleSearch, type App, type CachedMetadata, type TFile } from "obsidian";
import type { TextSearch } from "../core/search/word-search";
import type { DataviewAnswer, DataviewQueries, HostNoteMetadata, SearchHost } from "./search-host";
import { toStat } from "./obsidian-files";

/** The part of Dataview's plugin API search uses (`app.plugins.plugins.dataview.api`). */
interface DataviewApi {
	query(source: string): Promise<DataviewAnswer>;
	settings?: { tableIdColumnName?: unknown };
}

export class ObsidianSearch implements SearchHost {
	constructor(private readonly app: App) {}

	prepareSimpleSearch(query: string): TextSearch {
		return prepareSimpleSearch(query);
	}

	async readText(path: string): Promise<string | null> {
		const file = this.file(path);
		if (!file) return null;
		// The index can list a note another program just removed: gone is gone.
		return this.app.vault.cachedRead(file).catch(() => null);
	}

	metadata(path: string): HostNoteMetadata | null {
		const file = this.file(path);
		const cache = file ? this.app.metadataCache.getFileCache(file) : null;
		if (!file || !cache) return null;
		const { resolvedLinks, unresolvedLinks } = this.app.metadataCache;
		return {
			frontmatter: frontmatterOf(cache),
			inlineTags: (cache.tags ?? []).map((tag) => tag.tag.replace(/^#/, "")),
			links: Object.keys(resolvedLinks[file.path] ?? {}),
			unresolvedLinks: Object.keys(unresolvedLinks[file.path] ?? {}),
			stat: toStat(file),
		};
	}

	resolveLink(linkpath: string, source: string): string | null {
		return this.app.metadataCache.getFirstLinkpathDest(linkpath, source)?.path ?? null;
	}

	resolvedLinks(): Record<string, string[]> {
		const out: Record<string, string[]> = {};
		for (const [source, targets] of Object.entries(this.app.metadataCache.resolvedLinks))
			out[source] = Object.keys(targets);
		return out;
	}

	dataview(): DataviewQueries | null {
		// Obsidian's plugin registry is not in its published API; Dataview documents reaching its API through it.
		const registry = (
			this.app as unknown as { plugins?: { plugins?: Record<string, { api?: Partial<DataviewApi> } | undefined> } }
		).plugins;
		const api = registry?.plugins?.dataview?.api;
		if (!api || typeof api.query !== "function") return null;
		const query = api.query.bind(api);
		const idColumn = api.settings?.tableIdColumnName;
		return { query: (source) => query(source), idColumn: typeof idColumn === "string" ? idColumn : "File" };
	}

	private file(path: string): TFile | null {
		return this.app.vault.getFileByPath(normalizePath(path));
	}
}

/**
 * The frontmatter as the cache holds it. Obsidian before 1.4 kept the block's `position` inside it (the Local REST
 * API deletes that key); since then the position is `frontmatterPosition`, and a `position` key is the note's own.
 */
function frontmatterOf(cache: CachedMetadata): Record<string, unknown> {
	const frontmatter: Record<string, unknown> = { ...(cache.frontmatter ?? {}) };
	if (!cache.frontmatterPosition) delete frontmatter.position;
	return frontmatter;
}
