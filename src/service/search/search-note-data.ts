/**
 * The JSON a JsonLogic search evaluates for each note, as the Local REST API builds it: `path`, `content`, `tags`,
 * `frontmatter`, `stat`, `links`, `backlinks` and `unresolvedLinks`. Inside Obsidian the metadata comes from its
 * metadata cache (what Obsidian parsed); headless, or for a note the cache has not indexed yet, it is parsed from
 * the note with the core's own rules. Only the fields the query can reach are built (core/search/query-fields).
 */
import { readFrontmatter } from "../../core/markdown/frontmatter";
import { validateVaultPath, type PathPolicy } from "../../core/path";
import { jsonOf } from "../../core/search/json-logic-values";
import { LinkTargets } from "../../core/link-resolution";
import { noteLinkpaths } from "../../core/markdown/links";
import type { NoteField } from "../../core/search/query-fields";
import { noteTags, tagsOfFrontmatter } from "../../core/tags";
import type { VaultGateway } from "../../vault/gateway";
import { NoteEncodingError, VaultPathError } from "../../vault/errors";
import type { HostNoteMetadata } from "../../vault/search-host";
import type { SearchPacing } from "./search-pacing";

const PARSED: readonly NoteField[] = ["frontmatter", "tags", "links", "unresolvedLinks"];

/** Every file a link may lead to, attachments too (the host's note index: the same files the note JSON's links reach). */
export type LinkableFiles = () => Promise<string[]>;

export class NoteDataBuilder {
	private targets: LinkTargets | null = null;
	private backlinks: Map<string, string[]> | null = null;

	constructor(
		private readonly gateway: VaultGateway,
		private readonly policy: PathPolicy,
		/** The notes the search covers (policy and backup rules applied), in path order. */
		private readonly notes: readonly string[],
		private readonly fields: ReadonlySet<NoteField>,
		/** Headless link resolution's files; without it, links reach notes only. */
		private readonly linkableFiles?: LinkableFiles,
		/** What the caller may see (its key's scope): a link to anything else is not named. */
		private readonly visible: (path: string) => boolean = () => true,
	) {}

	/**
	 * Before the first note. Headless, a query that looks at links needs every file a link may reach (Obsidian's own
	 * resolution, core/link-resolution.ts); backlinks need every note's links (from Obsidian's cache, or read here).
	 */
	async prepare(pacing: SearchPacing): Promise<void> {
		const host = this.gateway.search;
		const wantsLinks = ["links", "unresolvedLinks", "backlinks"].some((field) => this.fields.has(field as NoteField));
		if (!host && wantsLinks) {
			const files = this.linkableFiles
				? await this.linkableFiles()
				: await this.gateway.listNotes(this.policy.noteExtensions);
			// Every file the policy serves, hidden from the caller or not, so a link resolves as Obsidian resolves it.
			this.targets = new LinkTargets(files.filter((path) => validateVaultPath(path, this.policy, "folder").ok));
		}
		if (!this.fields.has("backlinks")) return;
		const index = new Map<string, string[]>();
		const covered = new Set(this.notes);
		const add = (source: string, target: string) => {
			if (!covered.has(source)) return;
			const sources = index.get(target);
			if (!sources) index.set(target, [source]);
			else if (sources[sources.length - 1] !== source) sources.push(source);
		};
		if (host) {
			for (const [source, targets] of Object.entries(host.resolvedLinks())) {
				for (const target of targets) add(source, target);
				if (pacing.due()) await pacing.pause();
			}
		} else {
			for (const path of this.notes) {
				const content = await this.text(path);
				if (content !== null) for (const target of this.resolved(path, content).links) add(path, target);
				await pacing.turn();
			}
		}
		this.backlinks = index;
	}

	/** The note's JSON, or null when it is gone or cannot be read as text. */
	async build(path: string): Promise<Record<string, unknown> | null> {
		const { fields } = this;
		const metadata = this.gateway.search?.metadata(path) ?? null;
		// The cache names a link's target, not the link as written: a note that links to one the caller may not see has
		// its links resolved from its text, so that link reads as unresolved (as one to a note that is not there).
		const relink =
			metadata !== null && fields.has("unresolvedLinks") && metadata.links.some((target) => !this.visible(target));
		const parse = metadata === null || relink;
		const needsText = fields.has("content") || (parse && PARSED.some((field) => fields.has(field)));
		const content = needsText ? await this.text(path) : null;
		if (needsText && content === null) return null;
		const stat = metadata?.stat ?? (fields.has("stat") ? await this.gateway.stat(path) : null);
		if (fields.has("stat") && stat === null) return null;
		const data: Record<string, unknown> = { path };
		if (fields.has("content")) data.content = content;
		if (stat) data.stat = { ctime: stat.ctime, mtime: stat.mtime, size: stat.size };
		if (metadata) this.fromCache(path, metadata, data);
		if (parse && content !== null) this.parsed(path, content, data, metadata === null);
		if (fields.has("backlinks")) data.backlinks = this.backlinks?.get(path) ?? [];
		return data;
	}

	/** Inside Obsidian: what its metadata cache parsed. */
	private fromCache(path: string, metadata: HostNoteMetadata, data: Record<string, unknown>): void {
		const { fields } = this;
		if (fields.has("frontmatter")) data.frontmatter = jsonOf(metadata.frontmatter);
		if (fields.has("tags"))
			data.tags = [...new Set([...tagsOfFrontmatter(metadata.frontmatter), ...metadata.inlineTags])];
		if (fields.has("links")) data.links = metadata.links.filter((target) => this.served(target));
		if (fields.has("unresolvedLinks")) data.unresolvedLinks = metadata.unresolvedLinks;
	}

	/** Headless (or a note Obsidian has not indexed yet): parsed here, each part only when the query can reach it. */
	private parsed(path: string, content: string, data: Record<string, unknown>, metadataToo: boolean): void {
		const { fields } = this;
		if (metadataToo) {
			const frontmatter = readFrontmatter(content).data;
			if (fields.has("frontmatter")) data.frontmatter = jsonOf(frontmatter ?? {});
			if (fields.has("tags")) data.tags = noteTags(content, frontmatter);
		}
		if (fields.has("links") || fields.has("unresolvedLinks")) {
			const { links, unresolvedLinks } = this.resolved(path, content);
			if (fields.has("links")) data.links = links;
			if (fields.has("unresolvedLinks")) data.unresolvedLinks = unresolvedLinks;
		}
	}

	/**
	 * Where the note's links lead, each once (core/markdown/links.ts): resolved by Obsidian inside it (a note its cache
	 * has not indexed yet), else by core/link-resolution.ts over the files prepare() listed.
	 */
	private resolved(path: string, content: string): { links: string[]; unresolvedLinks: string[] } {
		const host = this.gateway.search;
		const links = new Set<string>();
		const unresolvedLinks = new Set<string>();
		for (const linkpath of noteLinkpaths(content)) {
			const target = host ? host.resolveLink(linkpath, path) : (this.targets?.resolve(linkpath, path) ?? null);
			// A link to a note the caller may not see leads nowhere for it, as one to a note that is not there.
			if (target === null || !this.visible(target)) unresolvedLinks.add(linkpath);
			// A link into a folder that is never served is not named (as with the cache's links).
			else if (this.served(target)) links.add(target);
		}
		return { links: [...links], unresolvedLinks: [...unresolvedLinks] };
	}

	/** The note's text as the search reads it: Obsidian's cached read, or the gateway's (skipping what is not text). */
	async text(path: string): Promise<string | null> {
		const host = this.gateway.search;
		try {
			return host ? await host.readText(path) : ((await this.gateway.read(path))?.content ?? null);
		} catch (error) {
			if (error instanceof NoteEncodingError || error instanceof VaultPathError) return null;
			throw error;
		}
	}

	/** A link target the API may name: nothing inside hidden, config or private folders (any file type). */
	private served(path: string): boolean {
		return validateVaultPath(path, this.policy, "folder").ok && this.visible(path);
	}
}
