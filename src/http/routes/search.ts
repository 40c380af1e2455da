/**
 * POST /search/simple/?query=&contextLength= and POST /search/ (JsonLogic, or Dataview DQL inside Obsidian), with the
 * Local REST API's request and answer shapes: a JSON array of hits, which show parts of notes and never a revision.
 * Answers are bounded: when the hits go on past one answer, `Search-Next-Cursor` names the rest (send it back as
 * `?cursor=`), and `Search-Total` always says how many there are.
 */
import { contextLengthOf } from "../../core/search/simple-hits";
import { jsonRefusal } from "../../core/nesting";
import type { SearchPage, SearchPageRequest } from "../../service/search/note-search";
import { LRA_CASE } from "../lra-error-codes";
import { problem, type ProblemName } from "../problems";
import { json, type ApiResponse, type JsonValue } from "../response";
import { actorOf, type RequestContext } from "../router";
import { headersValue } from "./headers";

export const JSON_LOGIC_TYPE = "application/vnd.olrapi.jsonlogic+json";
export const DQL_TYPE = "application/vnd.olrapi.dataview.dql+txt";

/** The most hits one answer holds, and about how many bytes of them (a single larger hit is still sent alone). */
export const REST_SEARCH_LIMIT = 100_000;
export const REST_SEARCH_BYTES = 8 * 1024 * 1024;

/** `/search/` and `/search/simple/`, with or without the final slash (as the Local REST API's router takes them). */
export const matchSearch = (raw: string) => (raw === "/search/" || raw === "/search" ? "" : null);
export const matchSimpleSearch = (raw: string) => (raw === "/search/simple/" || raw === "/search/simple" ? "" : null);

export async function simpleSearch(context: RequestContext): Promise<ApiResponse> {
	const queries = context.query.getAll("query");
	if (queries.length !== 1)
		return searchProblem(
			"invalid-search",
			"A single ?query= parameter is required: the words to find (every one must occur " +
				"in a note, in any case), e.g. POST /search/simple/?query=budget%20plan.",
		);
	const page = pageRequest(context);
	if ("problem" in page) return page.problem;
	const answer = await context.notes.search.simple(
		actorOf(context),
		queries[0]!,
		contextLengthOf(context.query.get("contextLength")),
		page,
	);
	return answered(answer);
}

export async function querySearch(context: RequestContext): Promise<ApiResponse> {
	const contentType = headersValue(context, "content-type");
	if (contentType === undefined)
		return searchProblem(
			"search-content-type",
			`Send the query with a Content-Type: ${JSON_LOGIC_TYPE} (a JsonLogic query as JSON) or ${DQL_TYPE} ` +
				`(a Dataview TABLE query, in Obsidian with Dataview).`,
			LRA_CASE.missingContentType,
		);
	const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
	if (mediaType !== JSON_LOGIC_TYPE && mediaType !== DQL_TYPE)
		return searchProblem(
			"search-content-type",
			`Content-Type ${JSON.stringify(contentType)} is not a search query type: send ${JSON_LOGIC_TYPE} ` +
				`(JsonLogic) or ${DQL_TYPE} (Dataview DQL).`,
		);
	const page = pageRequest(context);
	if ("problem" in page) return page.problem;
	const body = await context.body();
	if (mediaType === DQL_TYPE) {
		const answer = await context.notes.search.dql(actorOf(context), body, page);
		if (answer.kind === "unavailable") return dataviewUnavailable(answer.reason);
		if (answer.kind === "scoped") return problem("scope-forbidden", DQL_SCOPED, { scope: "dql" });
		if (answer.kind === "invalid-query")
			return searchProblem("invalid-search-query", `${answer.reason} Nothing was searched.`);
		return answered(answer);
	}
	const unsafe = jsonRefusal(body);
	if (unsafe !== null)
		return searchProblem("invalid-search-query", `The JsonLogic query was not read because ${unsafe}.`);
	let query: unknown;
	try {
		query = JSON.parse(body);
	} catch (error) {
		return searchProblem(
			"invalid-search-query",
			`The body is not JSON (${error instanceof Error ? error.message : "parse error"}): ` +
				`send a JsonLogic query such as {"in": ["work", {"var": "tags"}]}.`,
			LRA_CASE.unparsableBody,
		);
	}
	const answer = await context.notes.search.logic(actorOf(context), query, page);
	if (answer.kind === "invalid-query")
		return searchProblem(
			"invalid-search-query",
			`${answer.reason} See https://jsonlogic.com/operations.html, plus glob and regexp.`,
		);
	if (answer.kind === "too-costly")
		return searchProblem(
			"search-too-costly",
			`${answer.reason} Narrow it (match on path or frontmatter before content), or simplify its patterns.`,
		);
	return answered(answer);
}

/** `?cursor=`, `?limit=` and `?includeBackups=true`, or the problem with them. */
function pageRequest(context: RequestContext): SearchPageRequest | { problem: ApiResponse } {
	const rawLimit = context.query.get("limit");
	const limit = rawLimit === null ? REST_SEARCH_LIMIT : Number(rawLimit);
	if (!Number.isSafeInteger(limit) || limit < 1)
		return {
			problem: searchProblem(
				"invalid-search",
				`limit must be a whole number from 1 (at most ${REST_SEARCH_LIMIT} are sent).`,
			),
		};
	const cursor = context.query.get("cursor");
	return {
		limit: Math.min(limit, REST_SEARCH_LIMIT),
		maxBytes: REST_SEARCH_BYTES,
		includeBackups: context.query.get("includeBackups") === "true",
		...(cursor === null ? {} : { cursor }),
	};
}

function answered<T>(answer: SearchPage<T> | { kind: "bad-cursor" }): ApiResponse {
	if (answer.kind === "bad-cursor")
		return searchProblem(
			"invalid-search",
			"The cursor is not one this search gave (it belongs to another query, or was changed): " +
				"repeat the search without ?cursor=, then pass the Search-Next-Cursor it answers with.",
		);
	const headers: Record<string, string> = { "Cache-Control": "no-store", "Search-Total": String(answer.total) };
	if (answer.nextCursor !== null) headers["Search-Next-Cursor"] = answer.nextCursor;
	return json(200, answer.hits as unknown as JsonValue, headers);
}

const DQL_SCOPED =
	"This key may read only part of the vault, and a Dataview DQL column can show values " +
	"of any note (a link list, an embed), so DQL is not run for it: nothing was searched. " +
	"Send a JsonLogic query (Content-Type: application/vnd.olrapi.jsonlogic+json), which " +
	"covers only the notes this key may see.";

function dataviewUnavailable(reason: "no-obsidian" | "no-dataview"): ApiResponse {
	const detail =
		reason === "no-obsidian"
			? "Dataview DQL runs only inside Obsidian with the Dataview plugin, and this is the " +
				"headless host (a plain folder): nothing was searched. Send a JsonLogic query instead " +
				"(Content-Type: application/vnd.olrapi.jsonlogic+json)."
			: "Dataview DQL needs the Dataview plugin, which is not installed or not enabled in " +
				"this vault: nothing was searched. Enable Dataview in Obsidian (Settings → Community " +
				"plugins), or send a JsonLogic query instead.";
	return searchProblem("dataview-unavailable", detail);
}

/**
 * A search problem, with the Local REST API's `errorCode` for the same failure (lra-error-codes.ts; `errorCode` here
 * only where one problem type covers two of its cases) and the `message` every problem carries.
 */
function searchProblem(name: ProblemName, detail: string, errorCode?: number): ApiResponse {
	return problem(name, detail, errorCode === undefined ? {} : { errorCode });
}
