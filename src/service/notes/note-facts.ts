/**
 * What agents may learn about notes besides their text: the vault's tags with counts, where a note's links lead, and
 * a note rendered as HTML. The host's note index (vault/note-index.ts) supplies them; this decides which notes count:
 * only those the path policy serves (no hidden, config or private folders), and not .bak notes, which are copies of
 * refused proposals (counting their tags and links would count an agent's refused text as the vault's).
 */
import { isBackupPath } from "../../core/conflicts";
import { noteEmbedpaths, noteLinkpaths } from "../../core/markdown/links";
import { validateVaultPath, type PathPolicy } from "../../core/path";
import { countTags, type TagCount } from "../../core/tags";
import type { RevisionGuardSettings } from "../../settings";
import type { NoteIndex, NoteLinks } from "../../vault/note-index";

/** Notes longer than this are not rendered (a renderer holds the host's thread while it works): GET the markdown. */
export const MAX_RENDERED_MARKDOWN = 1024 * 1024;
/** Rendered HTML longer than this is not sent. */
export const MAX_RENDERED_HTML = 4 * 1024 * 1024;

export type RenderedHtml =
	{ kind: "html"; html: string } | { kind: "unavailable" } | { kind: "too-large"; limit: "markdown" | "html" };

export interface NoteFactsDeps {
	index: NoteIndex;
	pathPolicy: () => PathPolicy;
	settings: () => RevisionGuardSettings;
}

export class NoteFacts {
	constructor(private readonly deps: NoteFactsDeps) {}

	/**
	 * Every tag the counted notes the caller may see use, with how often (nested tags count for their parents too).
	 * Reads nothing as an agent's read.
	 */
	async tags(visible: (path: string) => boolean): Promise<TagCount[]> {
		return countTags(await this.deps.index.tagUses(this.counts(visible)));
	}

	/** Where the links in `content` (the note at `path`, as the answer shows it) lead, and which notes the caller may see link to it. */
	async links(visible: (path: string) => boolean, path: string, content: string): Promise<NoteLinks> {
		// A link to a note the caller may not see leads nowhere, as one to a note that is not there: no telling them apart.
		const found = await this.deps.index.links(path, noteLinkpaths(content), this.counts(visible), visible);
		const policy = this.deps.pathPolicy();
		// A link into a folder that is never served, or to a note the caller may not see, is not shown as leading anywhere
		// (that would reveal what is there).
		const links = found.links.filter((target) => validateVaultPath(target, policy, "folder").ok && visible(target));
		return { ...found, links, backlinks: found.backlinks.filter(visible) };
	}

	/** `markdown` (the note at `path`, or a part of it) as HTML that is safe to show. */
	async renderHtml(path: string, markdown: string): Promise<RenderedHtml> {
		const { index } = this.deps;
		if (!index.renderHtml) return { kind: "unavailable" };
		if (markdown.length > MAX_RENDERED_MARKDOWN) return { kind: "too-large", limit: "markdown" };
		const html = await index.renderHtml(path, markdown, MAX_RENDERED_HTML);
		return html === null ? { kind: "too-large", limit: "html" } : { kind: "html", html };
	}

	/** Where the links in `markdown` (the note at `path`) lead, every resolved target included (a renderer follows them all). */
	async linkTargets(path: string, markdown: string): Promise<string[]> {
		return (await this.deps.index.links(path, noteLinkpaths(markdown), () => false)).links;
	}

	/** Whether the renderer shows embedded notes (and their embeds) inside a note: see NoteIndex.rendersEmbeds. */
	get rendersEmbeds(): boolean {
		return this.deps.index.rendersEmbeds === true;
	}

	/** The notes `markdown` (the note at `path`) embeds: a renderer shows each inside it, with whatever they link to. */
	async embeddedNotes(path: string, markdown: string): Promise<string[]> {
		const extensions = this.deps.settings().noteExtensions.map((extension) => `.${extension.toLowerCase()}`);
		const targets = (await this.deps.index.links(path, noteEmbedpaths(markdown), () => false)).links;
		return targets.filter((target) => extensions.some((extension) => target.toLowerCase().endsWith(extension)));
	}

	/** `path` was written, created or deleted through the guarded writer (see NoteIndex.changed). */
	changed(path: string): void {
		this.deps.index.changed?.(path);
	}

	/** The notes whose tags and links count: served, visible to the caller, and not a .bak. */
	private counts(visible: (path: string) => boolean): (path: string) => boolean {
		const policy = this.deps.pathPolicy();
		const { backupFolder } = this.deps.settings();
		return (path) => validateVaultPath(path, policy, "note").ok && !isBackupPath(path, backupFolder) && visible(path);
	}
}
