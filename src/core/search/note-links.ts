/**
 * A note's links for the headless host, which has no Obsidian metadata cache: wiki links (`[[Note]]`,
 * `[[Note#Heading|alias]]`, `![[embed]]`) and markdown links to vault files (`[text](Folder/Note.md)`), outside code,
 * plus wiki links in frontmatter values, as Obsidian records them. Each resolves to a note the way Obsidian's
 * `getFirstLinkpathDest` finds one (a path from the vault root, then from the note's folder, then the nearest
 * note of that name), or stays unresolved by the name it was written with. Links to attachments (images, PDFs)
 * are in neither list: the headless host serves notes only.
 */
import { blankInlineCode } from "../markdown/inline-code";
import { parseMarkdown } from "../markdown/structure";

const WIKI_LINK = /!?\[\[([^\]\n]+?)\]\]/g;
const MARKDOWN_LINK = /!?\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+"[^"\n]*")?\s*\)/g;
/** A URL scheme (`https:`, `mailto:`, `obsidian:`): not a file in the vault. */
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** The link paths a note writes, without subpaths or aliases, in order of appearance (each once). */
export function linkPaths(content: string, frontmatter: Record<string, unknown> | null): string[] {
	const found: string[] = [];
	if (frontmatter) collectFrontmatterLinks(frontmatter, found, 0);
	const { lines, frontmatter: block, code } = parseMarkdown(content);
	for (let index = block?.bodyLine ?? 0; index < lines.length; index++) {
		if (code.has(index)) continue;
		const text = blankInlineCode(lines[index]!.text);
		for (const match of text.matchAll(WIKI_LINK)) found.push(wikiPath(match[1]!));
		for (const match of text.matchAll(MARKDOWN_LINK)) {
			const target = markdownPath(match[1]!);
			if (target !== null) found.push(target);
		}
	}
	return [...new Set(found)];
}

function collectFrontmatterLinks(value: unknown, found: string[], depth: number): void {
	if (depth > 64) return;
	if (typeof value === "string") for (const match of value.matchAll(WIKI_LINK)) found.push(wikiPath(match[1]!));
	else if (Array.isArray(value)) for (const item of value) collectFrontmatterLinks(item, found, depth + 1);
	else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) collectFrontmatterLinks(item, found, depth + 1);
}

/** `Note#Heading|alias` → `Note`. */
function wikiPath(inner: string): string {
	return withoutSubpath(inner.split("|")[0]!).trim();
}

function markdownPath(raw: string): string | null {
	const target = raw.startsWith("<") ? raw.slice(1, -1) : raw;
	if (EXTERNAL.test(target) || target.startsWith("#")) return null;
	let decoded: string;
	try {
		decoded = decodeURIComponent(target);
	} catch {
		decoded = target;
	}
	return withoutSubpath(decoded).trim();
}

function withoutSubpath(link: string): string {
	const hash = link.indexOf("#");
	return hash === -1 ? link : link.slice(0, hash);
}

/** Resolves link paths against the notes of one vault; build one per search. */
export class LinkResolver {
	/** Lower-cased path → path. */
	private readonly byPath = new Map<string, string>();
	/** Lower-cased file name → paths of that name. */
	private readonly byName = new Map<string, string[]>();

	constructor(notePaths: readonly string[]) {
		for (const path of notePaths) {
			const lower = path.toLowerCase();
			this.byPath.set(lower, path);
			const name = lower.slice(lower.lastIndexOf("/") + 1);
			const named = this.byName.get(name);
			if (named) named.push(path);
			else this.byName.set(name, [path]);
		}
	}

	/** The note a link from `source` leads to, or null. An empty link path is the note itself. */
	resolve(linkPath: string, source: string): string | null {
		if (linkPath === "") return source;
		const folder = source.includes("/") ? source.slice(0, source.lastIndexOf("/")) : "";
		const relative = normalized(folder === "" ? linkPath : `${folder}/${linkPath}`);
		const explicit = linkPath.startsWith("./") || linkPath.startsWith("../");
		for (const candidate of explicit ? [relative] : [normalized(linkPath), relative]) {
			if (candidate === null) continue;
			const found = this.exact(candidate);
			if (found !== null) return found;
		}
		if (explicit) return null;
		return this.nearestNamed(linkPath.toLowerCase(), folder);
	}

	private exact(path: string): string | null {
		const lower = path.toLowerCase();
		return this.byPath.get(lower) ?? this.byPath.get(lower + ".md") ?? null;
	}

	/** Among notes whose path ends with the link path: one in the source's folder, else the shortest path. */
	private nearestNamed(lowerLink: string, folder: string): string | null {
		const name = lowerLink.slice(lowerLink.lastIndexOf("/") + 1);
		const candidates = [...(this.byName.get(name) ?? []), ...(this.byName.get(name + ".md") ?? [])].filter((path) => {
			const lower = path.toLowerCase();
			return [lowerLink, lowerLink + ".md"].some((ending) => lower === ending || lower.endsWith("/" + ending));
		});
		if (candidates.length === 0) return null;
		const sameFolder = candidates.find((path) => path.slice(0, Math.max(path.lastIndexOf("/"), 0)) === folder);
		return sameFolder ?? [...candidates].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))[0]!;
	}
}

/** `a/./b/../c` → `a/c`; null when it climbs out of the vault. */
function normalized(path: string): string | null {
	const out: string[] = [];
	for (const segment of path.split("/")) {
		if (segment === "" || segment === ".") continue;
		if (segment === "..") {
			if (out.length === 0) return null;
			out.pop();
		} else out.push(segment);
	}
	return out.join("/");
}

/**
 * The files Obsidian opens that are not notes (its attachment types). The headless host knows only notes, so a link
 * to one of these is in neither list rather than called unresolved.
 */
const ATTACHMENT = /\.(?:png|jpe?g|gif|bmp|svg|webp|avif|pdf|mp3|wav|m4a|ogg|3gp|flac|webm|mp4|ogv|mov|mkv|canvas|base)$/i;

/** A note's links as the Local REST API reports them: the notes they reach, and the link paths that reach none. */
export function noteLinks(source: string, paths: readonly string[], resolver: LinkResolver): { links: string[]; unresolvedLinks: string[] } {
	const links: string[] = [];
	const unresolvedLinks: string[] = [];
	for (const path of paths) {
		const target = resolver.resolve(path, source);
		if (target !== null) links.push(target);
		else if (!ATTACHMENT.test(path)) unresolvedLinks.push(path);
	}
	return { links: [...new Set(links)], unresolvedLinks: [...new Set(unresolvedLinks)] };
}
