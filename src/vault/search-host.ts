/**
 * What a host offers search beyond reading notes. Obsidian has its own simple search, a metadata cache that has
 * already parsed every note (frontmatter, tags, resolved links) and, when the person installed it, Dataview; the
 * search uses them there, so it answers as Obsidian (and the Local REST API inside it) would. A plain folder has
 * none of these: the search service reads and parses notes itself (core/search).
 */
import type { TextSearch } from "../core/search/word-search";
import type { NoteStat } from "./gateway";

/** One note as Obsidian's metadata cache knows it. */
export interface HostNoteMetadata {
	/** As the cache parsed it (without Obsidian's `position`); {} for none. */
	frontmatter: Record<string, unknown>;
	/** Tags written in the body (`#tag`), without '#', in order. */
	inlineTags: string[];
	/** The files the note's links resolve to (Obsidian's resolvedLinks). */
	links: string[];
	/** The link paths that resolve to nothing (Obsidian's unresolvedLinks). */
	unresolvedLinks: string[];
	stat: NoteStat;
}

/** A Dataview query's answer, as its API returns one (`Result<QueryResult, string>`). */
export type DataviewAnswer =
	| { successful: true; value: { type: string; headers?: string[]; values: unknown[] } }
	| { successful: false; error: string };

export interface DataviewQueries {
	/** Runs a DQL query (`api.query`). */
	query(source: string): Promise<DataviewAnswer>;
	/** The name of a TABLE's first column, the file link (Dataview's `tableIdColumnName`). */
	idColumn: string;
}

export interface SearchHost {
	/** Obsidian's own `prepareSimpleSearch`. */
	prepareSimpleSearch(query: string): TextSearch;
	/** The note's text as Obsidian's search reads it (`cachedRead`), or null when it is gone. */
	readText(path: string): Promise<string | null>;
	/** What the metadata cache knows of the note, or null when it has not indexed it (yet). */
	metadata(path: string): HostNoteMetadata | null;
	/** Where a link leads from the note at `source` (Obsidian's getFirstLinkpathDest), for a note not indexed yet. */
	resolveLink(linkpath: string, source: string): string | null;
	/** Every note's resolved links (source → destinations), for backlinks. */
	resolvedLinks(): Record<string, string[]>;
	/** Dataview's query API when the plugin is installed and enabled, else null. */
	dataview(): DataviewQueries | null;
}
