/**
 * The note index of a host without Obsidian (the headless host): tags and links parsed from the notes themselves
 * (core/tags.ts, core/markdown/links.ts) and links resolved by Obsidian's rules over the folder's files
 * (core/link-resolution.ts). What a note holds is parsed once and kept until the note changes: a change it hears of
 * (vault-files.ts) drops it, and each full walk checks every kept note's size and time. Rendering, when the host
 * offers it, is handed in (the headless host's markdown library): the plugin never bundles one.
 */
import { LinkTargets } from "../../core/link-resolution";
import { noteLinkpaths } from "../../core/markdown/links";
import { SLICE_MS, type YieldToHost } from "../../core/steps";
import { tagOccurrences } from "../../core/tags";
import type { NoteStat, VaultGateway } from "../../vault/gateway";
import type { NoteIndex, NoteLinks } from "../../vault/note-index";
import { VaultFiles } from "../notes/vault-files";

/** Markdown → safe HTML of at most `maxChars` (null when longer). */
export type RenderMarkdown = (markdown: string, maxChars: number) => string | null;

export interface ParsedNoteIndexOptions {
	gateway: VaultGateway;
	yieldToHost: YieldToHost;
	render?: RenderMarkdown;
	/** The wall clock file times are compared with (not the guard's clock, which tests may set anywhere). */
	wallClock?: () => number;
}

interface Parsed {
	stat: NoteStat;
	/** When it was parsed (wall clock). */
	parsedAt: number;
	tags: string[];
	linkpaths: string[];
}

/**
 * A note changed again within this long of the time it was parsed may still show the stat it was parsed with (times
 * are kept to the millisecond): a walk trusts what was parsed only for notes older than this when parsed, as git
 * trusts its index only for files older than the index ("racy git").
 */
const RACY_MS = 2000;

export class ParsedNoteIndex implements NoteIndex {
	private readonly parsed = new Map<string, Parsed>();
	private readonly files: VaultFiles;
	private readonly clock: () => number;
	/** One scan at a time: each starts after the last, so they never parse the same note twice at once. */
	private queue: Promise<unknown> = Promise.resolve();
	readonly renderHtml?: (path: string, markdown: string, maxChars: number) => Promise<string | null>;

	constructor(private readonly options: ParsedNoteIndexOptions) {
		const { render } = options;
		if (render) this.renderHtml = (_path, markdown, maxChars) => Promise.resolve(render(markdown, maxChars));
		this.clock = options.wallClock ?? Date.now;
		this.files = new VaultFiles(options.gateway, this.clock);
	}

	async tagUses(include: (path: string) => boolean): Promise<string[][]> {
		const { notes } = await this.scan(include);
		return [...notes.values()].map((note) => note.tags);
	}

	async links(
		path: string,
		linkpaths: readonly string[],
		include: (path: string) => boolean,
		resolvable: (target: string) => boolean = () => true,
	): Promise<NoteLinks> {
		const { files, notes } = await this.scan(include);
		const targets = new LinkTargets(files);
		const links = new Set<string>();
		const unresolvedLinks = new Set<string>();
		for (const linkpath of linkpaths) {
			const target = targets.resolve(linkpath, path);
			if (target === null || !resolvable(target)) unresolvedLinks.add(linkpath);
			else links.add(target);
		}
		const backlinks: string[] = [];
		const name = stemOf(path);
		for (const [source, note] of notes) {
			// Only a link whose last segment names this note can lead to it: the rest are not resolved at all.
			if (note.linkpaths.some((linkpath) => stemOf(linkpath) === name && targets.resolve(linkpath, source) === path))
				backlinks.push(source);
		}
		return { links: [...links], unresolvedLinks: [...unresolvedLinks], backlinks: backlinks.sort() };
	}

	async linkableFiles(): Promise<string[]> {
		// No note is parsed for this: only the folder's files are wanted.
		const { files } = await this.scan(() => false);
		return [...files];
	}

	changed(path: string): void {
		this.files.touch(path);
	}

	close(): void {
		this.files.close();
	}

	private scan(include: (path: string) => boolean): Promise<{ files: Iterable<string>; notes: Map<string, Parsed> }> {
		const run = this.queue.then(() => this.scanNow(include));
		this.queue = run.catch(() => undefined);
		return run;
	}

	private async scanNow(include: (path: string) => boolean) {
		const { files, walked, touched } = await this.files.now();
		for (const path of touched) this.parsed.delete(path);
		const notes = new Map<string, Parsed>();
		let sliceStart = performance.now();
		for (const [path, stat] of files) {
			if (!path.toLowerCase().endsWith(".md")) continue;
			const known = this.parsed.get(path);
			const trusted = known && (!walked || (sameStat(known.stat, stat) && known.parsedAt - stat.mtime > RACY_MS));
			if (!include(path)) {
				// Not parsed now, but what is kept must still agree with this walk: a later scan would trust it unchecked.
				if (known && !trusted) this.parsed.delete(path);
				continue;
			}
			const note = trusted ? known : await this.parse(path);
			if (note) notes.set(path, note);
			if (performance.now() - sliceStart >= SLICE_MS) {
				await this.options.yieldToHost();
				sliceStart = performance.now();
			}
		}
		for (const path of this.parsed.keys()) if (!files.has(path)) this.parsed.delete(path);
		return { files: files.keys(), notes };
	}

	private async parse(path: string): Promise<Parsed | null> {
		const parsedAt = this.clock();
		// A note that cannot be read as text (not UTF-8, gone meanwhile) has no tags or links to count.
		const snapshot = await this.options.gateway.read(path).catch(() => null);
		if (!snapshot) {
			this.parsed.delete(path);
			return null;
		}
		const parsed = {
			stat: snapshot.stat,
			parsedAt,
			tags: tagOccurrences(snapshot.content),
			linkpaths: noteLinkpaths(snapshot.content),
		};
		this.parsed.set(path, parsed);
		return parsed;
	}
}

function sameStat(a: NoteStat, b: NoteStat): boolean {
	return a.mtime === b.mtime && a.size === b.size && a.ctime === b.ctime;
}

/** A note's name without folders or `.md`, lower-cased: what a link's last segment must be to name it. */
function stemOf(path: string): string {
	return path
		.slice(path.lastIndexOf("/") + 1)
		.replace(/\.md$/i, "")
		.toLowerCase();
}
