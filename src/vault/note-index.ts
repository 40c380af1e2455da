/**
 * What a host knows about its notes beyond their bytes: which tags they use, where their links lead, and how a note
 * looks rendered. Inside Obsidian it is Obsidian's own (its metadata cache, link resolution and markdown renderer,
 * vault/obsidian-note-index.ts); a plain folder parses the notes itself (service/search/parsed-note-index.ts).
 */

/** Where a note's links lead (the Local REST API's note JSON fields). */
export interface NoteLinks {
	/** Vault paths of the files the note links to, each once. */
	links: string[];
	/** Link paths, as written, that lead to no file, each once. */
	unresolvedLinks: string[];
	/** Vault paths of the notes that link to this one, each once. */
	backlinks: string[];
}

export interface NoteIndex {
	/**
	 * Every use of a tag (without '#') in each markdown note `include` admits, one list per note: a tag used twice is
	 * listed twice (Obsidian's getAllTags). Inside Obsidian, of the notes as Obsidian last indexed them.
	 */
	tagUses(include: (path: string) => boolean): Promise<string[][]>;

	/**
	 * Where each of `linkpaths` (the links of the note at `path`, as written) leads, and which notes link to it;
	 * `include` admits the notes that count as linking. A link whose target `resolvable` refuses (one the caller may
	 * not see) is unresolved, as a link to a note that is not there is.
	 */
	links(
		path: string,
		linkpaths: readonly string[],
		include: (path: string) => boolean,
		resolvable?: (target: string) => boolean,
	): Promise<NoteLinks>;

	/**
	 * Every file a link may lead to (attachments too), for work that resolves many notes' links at once (search) by
	 * core/link-resolution.ts. Absent inside Obsidian, whose metadata cache has resolved every note's links already.
	 */
	linkableFiles?(): Promise<string[]>;

	/**
	 * `markdown` (the note at `path`, or a part of it) as HTML that is safe to show (nothing in it runs), at most
	 * `maxChars` long; null when it would be longer. Absent when the host cannot render.
	 */
	renderHtml?(path: string, markdown: string, maxChars: number): Promise<string | null>;

	/**
	 * The renderer fills a note's embeds in with the notes they name, and theirs in turn (Obsidian's does; a plain
	 * folder's leaves an embed as its text). Absent: it does not.
	 */
	readonly rendersEmbeds?: boolean;

	/**
	 * `path` was just written, created or deleted through this host's guarded writer, which a folder's watcher does not
	 * report (Obsidian's index hears of it by itself, so its index has no need of this).
	 */
	changed?(path: string): void;

	/** Nothing more will be asked: stop listening to the vault. */
	close?(): void;
}
