/** The OpenAPI entries of GET /tags/ and GET /openapi.yaml (see tags.ts, openapi-yaml.ts); openapi.ts hands in its shared pieces. */
import type { JsonValue } from "../response";

interface Shared {
	problemResponse: (description: string) => JsonValue;
	common: Record<string, JsonValue>;
}

export function tagsPaths({ problemResponse, common }: Shared): Record<string, JsonValue> {
	return {
		"/openapi.yaml": {
			get: {
				summary:
					"This document as YAML, the form the Local REST API serves. Needs no key (it says " +
					"nothing about the vault), as in the Local REST API.",
				security: [],
				responses: {
					"200": {
						description: "OpenAPI 3.1 document.",
						content: { "application/yaml": { schema: { type: "string" } } },
					},
				},
			},
		},
		"/tags/": {
			get: {
				summary:
					"Every tag the served notes use, with how often, as the Local REST API answers it: " +
					"frontmatter `tags` and inline #tags outside code, without '#'. A nested tag also " +
					"counts for each parent (`work/tasks` counts for `work`). A tag used twice in one " +
					"note counts twice; case is kept. .bak notes (refused proposals) and folders that " +
					"are never served do not count. Inside Obsidian, the notes as Obsidian last indexed " +
					"them. Sorted by name; also at /tags.",
				parameters: [
					{
						name: "after",
						in: "query",
						required: false,
						description: "Start after this tag name: `next` from the previous page.",
						schema: { type: "string" },
					},
					{
						name: "limit",
						in: "query",
						required: false,
						description: "At most this many tags (every one by default, up to about 2 MB of JSON per answer).",
						schema: { type: "integer", minimum: 1, maximum: 100000 },
					},
				],
				responses: {
					"200": {
						description: "The tags. No revision or change tag: a tag list shows no note.",
						content: {
							"application/json": {
								schema: {
									type: "object",
									required: ["tags"],
									properties: {
										tags: {
											type: "array",
											items: {
												type: "object",
												required: ["name", "count"],
												properties: {
													name: { type: "string", description: "Without '#'." },
													count: { type: "integer", description: "Uses across the vault, nested tags included." },
												},
											},
										},
										next: { type: "string", description: "Present when more tags follow: send it as `after`." },
									},
								},
							},
						},
					},
					...common,
					"400": problemResponse("A limit that is not a whole number from 1 to 100000."),
				},
			},
		},
	};
}
