/** The OpenAPI entries of the search routes (see search.ts); openapi.ts hands in its shared pieces. */
import type { JsonValue } from "../response";
import { DQL_TYPE, JSON_LOGIC_TYPE, REST_SEARCH_LIMIT } from "./search";

interface Shared {
	problemResponse: (description: string) => JsonValue;
	common: Record<string, JsonValue>;
}

const pageParams = [
	{
		name: "cursor",
		in: "query",
		required: false,
		description: "The Search-Next-Cursor header of the previous answer to the same search: its next page.",
		schema: { type: "string" },
	},
	{
		name: "limit",
		in: "query",
		required: false,
		description:
			`The most hits one answer holds (default and cap ${REST_SEARCH_LIMIT}; an answer ` + `also stops at about 8 MB).`,
		schema: { type: "integer", minimum: 1 },
	},
	{
		name: "includeBackups",
		in: "query",
		required: false,
		description:
			"`true`: search `.bak` notes (refused agent writes) too. By default they are left " +
			"out: each repeats another note with an agent's stale text.",
		schema: { type: "string", enum: ["true"] },
	},
];
const pageHeaders = {
	"Search-Total": { description: "How many hits the search found in all.", schema: { type: "integer" } },
	"Search-Next-Cursor": {
		description: "Present when more hits follow: send it back as ?cursor= with the same search.",
		schema: { type: "string" },
	},
};
const lraError = " Carries `errorCode` and `message` as the Local REST API's errors do.";

const simpleHit = {
	type: "object",
	required: ["filename", "score", "matches"],
	properties: {
		filename: { type: "string", description: "The note's vault path." },
		score: {
			type: "number",
			description:
				"Higher is better. Inside Obsidian, its own simple search's score; headless, the number of occurrences found.",
		},
		matches: {
			type: "array",
			description:
				"Where the words occur (at most 100 per note): in the note's name (`source: filename`, " +
				"offsets in the name, `context` the name) or in its content (offsets in the content, " +
				"`context` the match with contextLength characters each side).",
			items: {
				type: "object",
				properties: {
					match: {
						type: "object",
						properties: {
							start: { type: "number" },
							end: { type: "number" },
							source: { type: "string", enum: ["filename", "content"] },
						},
					},
					context: { type: "string" },
				},
			},
		},
		matchCount: { type: "integer", description: "How many matches were found, when more than are listed." },
	},
};
const logicHit = {
	type: "object",
	required: ["filename", "result"],
	properties: {
		filename: { type: "string" },
		result: { description: 'What the query gave for this note (never null, false, 0, "", [] or {}).' },
	},
};

export function searchPaths({ problemResponse, common }: Shared): Record<string, JsonValue> {
	return {
		"/search/simple/": {
			post: {
				summary:
					"Find notes whose name or content holds every word of the query, ignoring case; best " +
					"first. Inside Obsidian this is Obsidian's own simple search. Hidden, config and private " +
					"folders are never searched; .bak notes only with includeBackups=true. Hits show parts " +
					"of notes, never a revision: read a note before writing it.",
				parameters: [
					{
						name: "query",
						in: "query",
						required: true,
						description: "Space-separated words.",
						schema: { type: "string" },
					},
					{
						name: "contextLength",
						in: "query",
						required: false,
						description: "Characters of context on each side of a content match (default 100, at most 10000).",
						schema: { type: "number", default: 100 },
					},
					...pageParams,
				],
				responses: {
					"200": {
						description: "The hits (an empty array when none).",
						headers: pageHeaders,
						content: { "application/json": { schema: { type: "array", items: simpleHit } } },
					},
					...common,
					"400": problemResponse(
						`invalid-search: no ?query= (errorCode 40090), or a cursor from another search.${lraError}`,
					),
				},
			},
		},
		"/search/": {
			post: {
				summary:
					"Search with a query over each note. JsonLogic: evaluated over each note's JSON (path, " +
					"content, frontmatter, tags, stat, links, backlinks, unresolvedLinks) with json-logic-js's " +
					"operations plus `glob: [PATTERN, VALUE]` and `regexp: [PATTERN, VALUE]` (run in linear " +
					"time; back-references and lookaround are refused); notes whose result is not false, " +
					'null, 0, "", [] or {} are returned, in path order. Dataview DQL (inside Obsidian ' +
					"with Dataview): a TABLE query, one hit per row with the other columns in `result`. " +
					"Hidden, config and private folders are never searched; .bak notes only with includeBackups=true. " +
					"A query's work is bounded.",
				parameters: pageParams,
				requestBody: {
					required: true,
					content: {
						[JSON_LOGIC_TYPE]: {
							schema: { type: "object", externalDocs: { url: "https://jsonlogic.com/operations.html" } },
							examples: {
								tag: { value: { in: ["myTag", { var: "tags" }] } },
								frontmatter: { value: { "==": [{ var: "frontmatter.status" }, "done"] } },
								glob: { value: { glob: ["journal/*", { var: "path" }] } },
							},
						},
						[DQL_TYPE]: {
							schema: {
								type: "string",
								externalDocs: { url: "https://blacksmithgu.github.io/obsidian-dataview/queries/structure/" },
							},
							example: 'TABLE rating AS "Rating" FROM #game SORT rating DESC',
						},
					},
				},
				responses: {
					"200": {
						description: "The hits (an empty array when none).",
						headers: pageHeaders,
						content: { "application/json": { schema: { type: "array", items: logicHit } } },
					},
					...common,
					"400": problemResponse(
						`search-content-type: no Content-Type (errorCode 40011) or another one (40012); invalid-search-query: ` +
							`a body that is not JSON (40015), an unknown operation, a pattern refused, a DQL query ` +
							`Dataview cannot run or that is not a TABLE (40070); search-too-costly: more work ` +
							`than a search may do (40070); invalid-search: a cursor from another search (40090).${lraError}`,
					),
					"501": problemResponse(
						`dataview-unavailable: DQL on the headless host, or in a vault without the Dataview ` +
							`plugin enabled (errorCode 50100).${lraError}`,
					),
				},
			},
		},
	};
}
