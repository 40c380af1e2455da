/**
 * Search and note facts (tags, links) as agents get them: each call names its caller, and covers only the notes that
 * caller's key may see (scope-gate.ts), so no hit, tag count, link or backlink speaks of a note hidden from it.
 */
import type { TagCount } from "../../core/tags";
import type { NoteLinks } from "../../vault/note-index";
import type { Actor } from "../notes/actor";
import type { NoteFacts, RenderedHtml } from "../notes/note-facts";
import type {
	BadCursor,
	DqlAnswer,
	LogicAnswer,
	NoteSearch,
	SearchPage,
	SearchPageRequest,
	SimpleHit,
} from "./note-search";
import type { ScopeGate } from "../scopes/scope-gate";

export class ScopedSearch {
	constructor(
		private readonly search: NoteSearch,
		private readonly scopes: ScopeGate,
	) {}

	simple(
		actor: Actor,
		query: string,
		contextLength: number,
		request: SearchPageRequest,
	): Promise<SearchPage<SimpleHit> | BadCursor> {
		return this.search.simple(this.scopes.visibility(actor), query, contextLength, request);
	}

	logic(actor: Actor, query: unknown, request: SearchPageRequest): Promise<LogicAnswer> {
		return this.search.logic(this.scopes.visibility(actor), query, request);
	}

	dql(actor: Actor, source: string, request: SearchPageRequest): Promise<DqlAnswer> {
		// Rows are the key's notes, but a column (a link list, a value from another note) can name any note: a key that
		// may read only part of the vault does not run DQL at all, rather than see a hidden note through a column.
		const scope = this.scopes.scopeOf(actor);
		if (scope !== null && !scope.lists.read.includes("**")) return Promise.resolve({ kind: "scoped" });
		return this.search.dql(this.scopes.visibility(actor), source, request);
	}
}

/** How many embedded notes a render for a key with lists may look through; a note that embeds more is not rendered. */
const MAX_EMBEDDED_NOTES = 64;

export class ScopedFacts {
	constructor(
		private readonly facts: NoteFacts,
		private readonly scopes: ScopeGate,
		/** A note's text as it is now (null: not there), for the notes a render embeds. */
		private readonly readNote: (path: string) => Promise<string | null>,
	) {}

	tags(actor: Actor): Promise<TagCount[]> {
		return this.facts.tags(this.scopes.visibility(actor));
	}

	links(actor: Actor, path: string, content: string): Promise<NoteLinks> {
		return this.facts.links(this.scopes.visibility(actor), path, content);
	}

	/**
	 * `markdown` as HTML. A renderer follows links (Obsidian's embeds show the note they name, its links name where they
	 * lead), so for a key with limits a note is not rendered at all when it, or a note it embeds (and so on, as the
	 * renderer nests them), links to one the key may not see.
	 */
	async renderHtml(actor: Actor, path: string, markdown: string): Promise<RenderedHtml | { kind: "links-hidden" }> {
		if (this.scopes.scopeOf(actor) !== null && !(await this.showsOnlyVisible(actor, path, markdown)))
			return { kind: "links-hidden" };
		return this.facts.renderHtml(path, markdown);
	}

	/** Whether every note the render of `markdown` would name or show, embeds within embeds included, is visible. */
	private async showsOnlyVisible(actor: Actor, path: string, markdown: string): Promise<boolean> {
		const visible = this.scopes.visibility(actor);
		const looked = new Set([path]);
		const pending = [{ path, markdown }];
		for (let note = pending.pop(); note !== undefined; note = pending.pop()) {
			if ((await this.facts.linkTargets(note.path, note.markdown)).some((target) => !visible(target))) return false;
			// A renderer that leaves embeds as text shows nothing of the notes they name.
			if (!this.facts.rendersEmbeds) break;
			for (const embedded of await this.facts.embeddedNotes(note.path, note.markdown)) {
				if (looked.has(embedded)) continue;
				looked.add(embedded);
				// Nested past any real note's depth: not rendered, rather than rendered unchecked.
				if (looked.size > MAX_EMBEDDED_NOTES) return false;
				// A note that cannot be read now cannot be checked, though the renderer may show it: not rendered.
				const text = await this.readNote(embedded).catch(() => undefined);
				if (text === undefined) return false;
				if (text !== null) pending.push({ path: embedded, markdown: text });
			}
		}
		return true;
	}

	changed(path: string): void {
		this.facts.changed(path);
	}
}
