/**
 * search_query and search_simple as the Local REST API 5.1's MCP server answers them (the JSON array of hits, as text),
 * over the one search service (`notes.search`, the same that serves POST /search/ and /search/simple/). That server sends
 * every hit; one answer here holds at most LRA_SEARCH_LIMIT hits and about LRA_SEARCH_BYTES of them, and when more
 * follow, a second text item says how many and hands the cursor that query_notes or search_notes pages on from. A hit
 * shows part of a note, so it carries no revision (read the note before changing it).
 */
import { clampContextLength } from "../../core/search/simple-hits";
import type { AgentNotes } from "../../service/notes/agent-notes";
import type { AgentActor } from "../../service/notes/actor";
import type { SearchPage, SearchPageRequest } from "../../service/search/note-search";
import type { LraAnswer } from "./service-operations";

export const LRA_SEARCH_LIMIT = 1000;
/** Measured as compact JSON; the answer is indented, so it is somewhat larger. */
export const LRA_SEARCH_BYTES = 512 * 1024;

const PAGE: SearchPageRequest = { limit: LRA_SEARCH_LIMIT, maxBytes: LRA_SEARCH_BYTES };

/** search_query: `[{filename, result}]`, in path order, for the notes whose result is not empty. */
export async function lraSearchQuery(notes: AgentNotes, actor: AgentActor, query: unknown): Promise<LraAnswer> {
	const answer = await notes.search.logic(actor, query, PAGE);
	if (answer.kind === "invalid-query")
		return {
			ok: false,
			message:
				`The JsonLogic query cannot be evaluated: ${answer.reason} Nothing was searched. ` +
				`See https://jsonlogic.com/operations.html, plus glob and regexp.`,
		};
	if (answer.kind === "too-costly")
		return {
			ok: false,
			message:
				`${answer.reason} Narrow the query (match on path, tags or frontmatter before content), ` +
				`or simplify its patterns.`,
		};
	return paged(answer, 'call query_notes with this query as "logic" and');
}

/** search_simple: `[{filename, score, matches: [{match: {start, end, source}, context}]}]`, best first. */
export async function lraSearchSimple(
	notes: AgentNotes,
	actor: AgentActor,
	query: string,
	contextLength: number,
): Promise<LraAnswer> {
	const length = clampContextLength(contextLength);
	const answer = await notes.search.simple(actor, query, length, PAGE);
	return paged(answer, `call search_notes with this query, "context_length": ${length} and`);
}

function paged<T>(answer: SearchPage<T> | { kind: "bad-cursor" }, howToContinue: string): LraAnswer {
	// No cursor is ever sent from here, so none can be refused; answered in words all the same.
	if (answer.kind === "bad-cursor")
		return { ok: false, message: "The search could not be paged. Nothing was searched." };
	if (answer.nextCursor === null) return { ok: true, value: answer.hits };
	const more =
		`Showing ${answer.hits.length} of ${answer.total} results (an answer holds at most ${LRA_SEARCH_LIMIT}, and about ${LRA_SEARCH_BYTES / 1024} ` +
		`KB). For the rest, ${howToContinue} "cursor": ${JSON.stringify(answer.nextCursor)}.`;
	return { ok: true, value: answer.hits, note: more };
}
