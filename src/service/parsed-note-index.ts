/**
 * The note index of a host without Obsidian (the headless host): tags and links parsed from the notes themselves
 * (core/tags.ts, core/markdown/links.ts) and links resolved by Obsidian's rules over the folder's files
 * (core/link-resolution.ts). Each call walks the folder (listings only) and parses again only the notes whose size
 * or modification time changed since they were parsed, so asking twice costs a walk, not a read of every note.
 * Rendering, when the host offers it, is handed in (the headless host's markdown library): the plugin never
 * bundles one.
 */
import { LinkTargets } from "../core/link-resolution";
import { noteLinkpaths } from "../core/markdown/links";
import { SLICE_MS, type YieldToHost } from "../core/steps";
import { tagOccurrences } from "../core/tags";
import type { NoteStat, VaultGateway } from "../vault/gateway";
import type { NoteIndex, NoteLinks } from "../vault/note-index";

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

interface Scan {
	/** Every file a link may lead to. */
	files: string[];
	/** The markdown notes the caller admits, with what they hold. */
	notes: Map<string, Parsed>;
}

/**
 * A note changed again within this long of the time it was parsed may still show the stat it was parsed with (times
 * are kept to the millisecond): its facts are trusted only once it is older than this when parsed, as git trusts
 * its index only for files older than the index ("racy git").
 */
const RACY_MS = 2000;
/** Folders deeper than this are not walked (no vault a person keeps comes near it; a generated one cannot hang us). */
const MAX_DEPTH = 64;

export class ParsedNoteIndex implements NoteIndex {
	private readonly parsed = new Map<string, Parsed>();
	/** One scan at a time: each starts after the last, so they never parse the same note twice at once. */
	private queue: Promise<unknown> = Promise.resolve();
	readonly renderHtml?: (path: string, markdown: string, maxChars: number) => Promise<string | null>;

	constructor(private readonly options: ParsedNoteIndexOptions) {
		const { render } = options;
		if (render) this.renderHtml = (_path, markdown, maxChars) => Promise.resolve(render(markdown, maxChars));
	}

	async tagUses(include: (path: string) => boolean): Promise<string[][]> {
		const { notes } = await this.scan(include);
		return [...notes.values()].map((note) => note.tags);
	}

	async links(path: string, linkpaths: readonly string[], include: (path: string) => boolean): Promise<NoteLinks> {
		const { files, notes } = await this.scan(include);
		const targets = new LinkTargets(files);
		const links = new Set<string>();
		const unresolvedLinks = new Set<string>();
		for (const linkpath of linkpaths) {
			const target = targets.resolve(linkpath, path);
			if (target === null) unresolvedLinks.add(linkpath);
			else links.add(target);
		}
		const backlinks: string[] = [];
		const name = stemOf(path);
		for (const [source, note] of notes) {
			// Only a link whose last segment names this note can lead to it: the rest are not resolved at all.
			if (note.linkpaths.some((linkpath) => couldName(linkpath, name) && targets.resolve(linkpath, source) === path)) backlinks.push(source);
		}
		return { links: [...links], unresolvedLinks: [...unresolvedLinks], backlinks: backlinks.sort() };
	}

	private scan(include: (path: string) => boolean): Promise<Scan> {
		const run = this.queue.then(() => this.scanNow(include));
		this.queue = run.catch(() => undefined);
		return run;
	}

	private async scanNow(include: (path: string) => boolean): Promise<Scan> {
		const { gateway, yieldToHost } = this.options;
		const clock = this.options.wallClock ?? Date.now;
		const files: string[] = [];
		const notes = new Map<string, Parsed>();
		const seen = new Set<string>();
		let sliceStart = performance.now();
		const folders: { path: string; depth: number }[] = [{ path: "", depth: 0 }];
		while (folders.length > 0) {
			const folder = folders.pop()!;
			for (const entry of (await gateway.list(folder.path)) ?? []) {
				if (entry.type === "folder") {
					if (folder.depth < MAX_DEPTH) folders.push({ path: entry.path.slice(0, -1), depth: folder.depth + 1 });
					continue;
				}
				files.push(entry.path);
				if (!entry.path.toLowerCase().endsWith(".md") || !entry.stat || !include(entry.path)) continue;
				seen.add(entry.path);
				const known = this.parsed.get(entry.path);
				const fresh = known && sameStat(known.stat, entry.stat) && known.parsedAt - entry.stat.mtime > RACY_MS ? known : await this.parse(entry.path, clock);
				if (fresh) notes.set(entry.path, fresh);
				if (performance.now() - sliceStart >= SLICE_MS) {
					await yieldToHost();
					sliceStart = performance.now();
				}
			}
		}
		for (const path of this.parsed.keys()) if (!seen.has(path)) this.parsed.delete(path);
		return { files, notes };
	}

	private async parse(path: string, clock: () => number): Promise<Parsed | null> {
		const parsedAt = clock();
		// A note that cannot be read as text (not UTF-8, gone meanwhile) has no tags or links to count.
		const snapshot = await this.options.gateway.read(path).catch(() => null);
		if (!snapshot) {
			this.parsed.delete(path);
			return null;
		}
		const parsed = { stat: snapshot.stat, parsedAt, tags: tagOccurrences(snapshot.content), linkpaths: noteLinkpaths(snapshot.content) };
		this.parsed.set(path, parsed);
		return parsed;
	}
}

function sameStat(a: NoteStat, b: NoteStat): boolean {
	return a.mtime === b.mtime && a.size === b.size && a.ctime === b.ctime;
}

/** A note's name without folders or `.md`, lower-cased: what a link's last segment must be to name it. */
function stemOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "").toLowerCase();
}

function couldName(linkpath: string, stem: string): boolean {
	return stemOf(linkpath) === stem;
}
