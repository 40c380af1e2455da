/**
 * Obsidian's own knowledge of the notes, as the Local REST API serves it: tags from the metadata cache (getAllTags,
 * so the counts are those of Obsidian's tag pane, of the notes as last indexed), links resolved by Obsidian itself
 * (getFirstLinkpathDest: its shortest-path rules, aliases of case and extension included), backlinks from its
 * resolved-links table, and notes rendered by its markdown renderer. The rendered element is written out through
 * core/html/safe-html.ts (never set as raw HTML), so nothing in a note can run where the HTML is shown.
 */
import { Component, getAllTags, MarkdownRenderer, type App } from "obsidian";
import { safeHtml } from "../core/html/safe-html";
import { SLICE_MS, type YieldToHost } from "../core/steps";
import { MAX_TAG_USES_PER_NOTE } from "../core/tags";
import type { NoteIndex, NoteLinks } from "./note-index";

export class ObsidianNoteIndex implements NoteIndex {
	/** Obsidian's renderer shows each embedded note inside the note that embeds it. */
	readonly rendersEmbeds = true;

	constructor(
		private readonly app: App,
		private readonly yieldToHost: YieldToHost,
	) {}

	async tagUses(include: (path: string) => boolean): Promise<string[][]> {
		const uses: string[][] = [];
		const pace = this.pacer();
		for (const file of this.app.vault.getMarkdownFiles()) {
			const cache = include(file.path) ? this.app.metadataCache.getFileCache(file) : null;
			const tags = cache ? getAllTags(cache) : null;
			if (tags) uses.push(tags.slice(0, MAX_TAG_USES_PER_NOTE).map((tag) => tag.replace(/^#/, "")));
			await pace();
		}
		return uses;
	}

	async links(
		path: string,
		linkpaths: readonly string[],
		include: (path: string) => boolean,
		resolvable: (target: string) => boolean = () => true,
	): Promise<NoteLinks> {
		const { metadataCache } = this.app;
		const links = new Set<string>();
		const unresolvedLinks = new Set<string>();
		const pace = this.pacer();
		for (const linkpath of linkpaths) {
			const target = metadataCache.getFirstLinkpathDest(linkpath, path);
			if (target && resolvable(target.path)) links.add(target.path);
			else unresolvedLinks.add(linkpath);
			await pace();
		}
		const backlinks: string[] = [];
		for (const [source, targets] of Object.entries(metadataCache.resolvedLinks)) {
			if (Object.prototype.hasOwnProperty.call(targets, path) && include(source)) backlinks.push(source);
			await pace();
		}
		return { links: [...links], unresolvedLinks: [...unresolvedLinks], backlinks: backlinks.sort() };
	}

	async renderHtml(path: string, markdown: string, maxChars: number): Promise<string | null> {
		// Detached: never shown, so nothing the renderer builds runs in the person's window.
		const element = createDiv();
		const component = new Component();
		component.load();
		try {
			await MarkdownRenderer.render(this.app, markdown, element, path, component);
			return safeHtml(element, maxChars);
		} finally {
			component.unload();
		}
	}

	/** Gives Obsidian a turn whenever a slice of work has run long enough (it runs on the UI thread). */
	private pacer(): () => Promise<void> {
		let sliceStart = performance.now();
		return async () => {
			if (performance.now() - sliceStart < SLICE_MS) return;
			await this.yieldToHost();
			sliceStart = performance.now();
		};
	}
}
