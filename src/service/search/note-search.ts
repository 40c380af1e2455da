/**
 * Search for agents, as the Local REST API offers it: a simple word search, a JsonLogic query over each note's
 * metadata, and Dataview DQL where Dataview is installed. It covers exactly the notes the path policy serves (never a
 * hidden, config or private folder) and, unless asked, no `.bak` note (each is a refused copy of another note, so
 * it would only repeat that note's hits with an agent's stale text). Answers show parts of notes, never a revision.
 * It reads one note at a time, gives the host turns as it goes, keeps only the page it will answer with, and bounds
 * a query's work, so no search can freeze Obsidian, fill memory or run without end.
 */
import { isBackupPath } from "../../core/conflicts";
import { MAX_NESTING } from "../../core/nesting";
import { validateVaultPath, type PathPolicy } from "../../core/path";
import { decodeCursor, encodeCursor, searchScope } from "../../core/search/cursor";
import { evaluate, isSearchHit, JsonLogicError, LogicSession } from "../../core/search/json-logic";
import { jsonOf, ValueTooLarge } from "../../core/search/json-logic-values";
import { fieldsWanted } from "../../core/search/query-fields";
import { RankedPage } from "../../core/search/ranked-page";
import { SearchBudget, SearchTooCostly } from "../../core/search/search-budget";
import { simpleHit, type SimpleHit } from "../../core/search/simple-hits";
import { prepareWordSearch } from "../../core/search/word-search";
import type { YieldToHost } from "../../core/steps";
import type { RevisionGuardSettings } from "../../settings";
import type { VaultGateway } from "../../vault/gateway";
import { dataviewRows } from "./search-dataview";
import { NoteDataBuilder, type LinkableFiles } from "./search-note-data";
import { SearchPacing } from "./search-pacing";

export type { SimpleHit } from "../../core/search/simple-hits";

/** How much work one JsonLogic search may do (a character step of a regular expression is one). */
export const LOGIC_BUDGET = 250_000_000;

export interface SearchPageRequest {
	/** From the last page's `nextCursor`. */
	cursor?: string;
	limit: number;
	/** About how many bytes of hits (as JSON) the page may hold; a single larger hit is still served alone. */
	maxBytes: number;
	/** Search `.bak` notes too. */
	includeBackups?: boolean;
}

/** Which notes the caller may see (its key's scope): the search covers only those, and names no other. */
export type Visible = (path: string) => boolean;

export interface SearchPage<T> {
	kind: "page";
	hits: T[];
	/** Pass back as `cursor` for the next page; null when this page ends the hits. */
	nextCursor: string | null;
	/** Hits in all (on every page). */
	total: number;
}

export interface LogicHit {
	filename: string;
	result: unknown;
}

/** A cursor that is malformed or belongs to another query. */
export type BadCursor = { kind: "bad-cursor" };
export type LogicAnswer =
	SearchPage<LogicHit> | BadCursor | { kind: "invalid-query"; reason: string } | { kind: "too-costly"; reason: string };
export type DqlAnswer =
	| SearchPage<LogicHit>
	| BadCursor
	| { kind: "invalid-query"; reason: string }
	| { kind: "unavailable"; reason: "no-obsidian" | "no-dataview" }
	/** The key may read only part of the vault, and a DQL column can show other notes' values: not run for it. */
	| { kind: "scoped" };

export interface NoteSearchDeps {
	gateway: VaultGateway;
	pathPolicy: () => PathPolicy;
	settings: () => RevisionGuardSettings;
	yieldToHost: YieldToHost;
	/** Headless: the files links resolve over (the note index's, so a search's links are the note JSON's). */
	linkableFiles?: LinkableFiles;
	/** For the slices between the host's turns; tests pass their own to count turns without timing anything. */
	clock?: () => number;
	/** LOGIC_BUDGET unless given (tests give small ones). */
	logicBudget?: number;
}

type SimpleKey = [number, string];
const isSimpleKey = (value: unknown): value is SimpleKey =>
	Array.isArray(value) && value.length === 2 && typeof value[0] === "number" && typeof value[1] === "string";
const isString = (value: unknown): value is string => typeof value === "string";
const isIndex = (value: unknown): value is number => Number.isInteger(value);
/** Best score first, then path order (code units: the same on every machine). */
const bySimpleRank = (a: SimpleKey, b: SimpleKey) => b[0] - a[0] || byPath(a[1], b[1]);
const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class NoteSearch {
	constructor(private readonly deps: NoteSearchDeps) {}

	/** Every note whose name or content holds every word of `query`, best first (Obsidian's order, inside it). */
	async simple(
		visible: Visible,
		query: string,
		contextLength: number,
		request: SearchPageRequest,
	): Promise<SearchPage<SimpleHit> | BadCursor> {
		const scope = searchScope(["simple", query, contextLength, Boolean(request.includeBackups)]);
		const after = request.cursor === undefined ? null : decodeCursor(scope, request.cursor, isSimpleKey);
		if (request.cursor !== undefined && after === null) return { kind: "bad-cursor" };
		const host = this.deps.gateway.search;
		const search = host ? host.prepareSimpleSearch(query) : prepareWordSearch(query);
		const collected = new RankedPage<SimpleHit, SimpleKey>(
			{ after, limit: request.limit, maxBytes: request.maxBytes },
			bySimpleRank,
		);
		const pacing = this.pacing();
		const notes = await this.notes(visible, request, pacing);
		const data = new NoteDataBuilder(this.deps.gateway, this.deps.pathPolicy(), notes, new Set(), undefined, visible);
		for (const path of notes) {
			const content = await data.text(path);
			const hit = content === null ? null : simpleHit(path, content, search, contextLength);
			if (hit) collected.offer(hit, [hit.score, path], JSON.stringify(hit).length);
			await pacing.turn();
		}
		return this.answer(collected, scope);
	}

	/** Every note for which the JsonLogic `query` gives a result that is not empty, in path order. */
	async logic(visible: Visible, query: unknown, request: SearchPageRequest): Promise<LogicAnswer> {
		if (nestedDeeperThan(query, MAX_NESTING))
			return { kind: "invalid-query", reason: `The query is nested more than ${MAX_NESTING} levels deep.` };
		const scope = searchScope(["logic", query, Boolean(request.includeBackups)]);
		const after = request.cursor === undefined ? null : decodeCursor(scope, request.cursor, isString);
		if (request.cursor !== undefined && after === null) return { kind: "bad-cursor" };
		const collected = new RankedPage<LogicHit, string>(
			{ after, limit: request.limit, maxBytes: request.maxBytes },
			byPath,
		);
		const pacing = this.pacing();
		const notes = await this.notes(visible, request, pacing);
		const data = new NoteDataBuilder(
			this.deps.gateway,
			this.deps.pathPolicy(),
			notes,
			fieldsWanted(query),
			this.deps.linkableFiles,
			visible,
		);
		const session = new LogicSession(new SearchBudget(this.deps.logicBudget ?? LOGIC_BUDGET));
		await data.prepare(pacing);
		for (const path of notes) {
			const note = await data.build(path);
			if (note !== null) {
				let result: unknown;
				try {
					result = await pacing.finish(evaluate(query, note, session));
				} catch (error) {
					if (error instanceof SearchTooCostly)
						return { kind: "too-costly", reason: `${capitalized(error.message)} (stopped while processing ${path}).` };
					if (error instanceof JsonLogicError || error instanceof ValueTooLarge)
						return { kind: "invalid-query", reason: `${capitalized(error.message)} (while processing ${path}).` };
					throw error;
				}
				if (isSearchHit(result)) {
					const hit = { filename: path, result: jsonOf(result) };
					collected.offer(hit, path, JSON.stringify(hit).length);
				}
			}
			await pacing.turn();
		}
		return this.answer(collected, scope);
	}

	/** A Dataview TABLE query, through Dataview's own API (Obsidian with Dataview only), in Dataview's row order. */
	async dql(visible: Visible, source: string, request: SearchPageRequest): Promise<DqlAnswer> {
		const host = this.deps.gateway.search;
		if (!host) return { kind: "unavailable", reason: "no-obsidian" };
		const dataview = host.dataview();
		if (!dataview) return { kind: "unavailable", reason: "no-dataview" };
		const scope = searchScope(["dql", source, Boolean(request.includeBackups)]);
		const after = request.cursor === undefined ? null : decodeCursor(scope, request.cursor, isIndex);
		if (request.cursor !== undefined && after === null) return { kind: "bad-cursor" };
		const rows = dataviewRows(await dataview.query(source), dataview.idColumn);
		if (rows.kind === "invalid-query") return rows;
		const collected = new RankedPage<LogicHit, number>(
			{ after, limit: request.limit, maxBytes: request.maxBytes },
			(a, b) => a - b,
		);
		const pacing = this.pacing();
		const covers = this.coverage(visible, request);
		for (const [index, row] of rows.rows.entries()) {
			if (covers(row.filename)) collected.offer(row, index, JSON.stringify(row).length);
			if (pacing.due()) await pacing.pause();
		}
		return this.answer(collected, scope);
	}

	/** The notes a search covers, in path order (checked in slices: 10,000 paths take tens of milliseconds). */
	private async notes(visible: Visible, request: SearchPageRequest, pacing: SearchPacing): Promise<string[]> {
		const covers = this.coverage(visible, request);
		const paths = (await this.deps.gateway.listNotes(this.deps.pathPolicy().noteExtensions)).sort(byPath);
		const covered: string[] = [];
		for (const path of paths) {
			if (covers(path)) covered.push(path);
			if (pacing.due()) await pacing.pause();
		}
		return covered;
	}

	/** Served by the path policy, visible to the caller, and not a `.bak` note unless asked for. */
	private coverage(visible: Visible, request: SearchPageRequest): (path: string) => boolean {
		const policy = this.deps.pathPolicy();
		const backupFolder = this.deps.settings().backupFolder;
		return (path) =>
			validateVaultPath(path, policy, "note").ok &&
			(Boolean(request.includeBackups) || !isBackupPath(path, backupFolder)) &&
			visible(path);
	}

	private pacing(): SearchPacing {
		return new SearchPacing(this.deps.yieldToHost, this.deps.clock);
	}

	private answer<T, K>(collected: RankedPage<T, K>, scope: string): SearchPage<T> {
		const page = collected.page();
		return {
			kind: "page",
			hits: page.items,
			nextCursor: page.next === null ? null : encodeCursor(scope, page.next),
			total: page.total,
		};
	}
}

function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether a parsed query nests arrays and objects deeper than `limit` (checked without recursion). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
	const stack: [unknown, number][] = [[value, 0]];
	while (stack.length > 0) {
		const [node, depth] = stack.pop()!;
		if (typeof node !== "object" || node === null) continue;
		if (depth >= limit) return true;
		for (const child of Object.values(node)) stack.push([child, depth + 1]);
	}
	return false;
}
