/** The OpenAPI entries of /commands/ and /open/{path} (commands.ts); openapi.ts hands in its shared pieces. */
import type { JsonValue } from "../response";

interface Shared {
	problemResponse: (description: string) => JsonValue;
	pathParam: JsonValue;
	common: Record<string, JsonValue>;
}

export function commandPaths({ problemResponse, pathParam, common }: Shared): Record<string, JsonValue> {
	const headless = problemResponse("obsidian-only: the headless host has no Obsidian commands or panes.");
	const changed = {
		type: "object",
		properties: {
			path: { type: "string" },
			change: { type: "string", enum: ["modified", "created", "deleted", "renamed"] },
			from: { type: "string", description: "For a rename: where the note was." },
			undoable: {
				type: "boolean",
				description: "Its text before the command is kept: POST /history/{path}/revert takes the change back.",
			},
			changeTag: {
				type: "string",
				description: "The note's change tag after the command (no content was shown: GET the note for its revision).",
			},
		},
	};
	return {
		"/commands/": {
			get: {
				summary:
					"Obsidian's commands, as the Local REST API lists them, and whether this key may " +
					"run them (`allowed`: the person allows keys one by one).",
				responses: {
					"200": {
						description: "The commands.",
						content: {
							"application/json": {
								schema: {
									type: "object",
									properties: {
										commands: {
											type: "array",
											items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
										},
										allowed: { type: "boolean" },
									},
								},
							},
						},
					},
					"501": headless,
					...common,
				},
			},
		},
		"/commands/{commandId}/": {
			post: {
				summary:
					"Run an Obsidian command (only with a key the person allowed: a command changes notes " +
					"with no revision). The person's unsaved typing is saved first, as theirs; every note " +
					"the command changes while it runs is credited to this key in history and activity, " +
					"and can be undone when its text before is known.",
				parameters: [
					{
						name: "commandId",
						in: "path",
						required: true,
						description: "An id from GET /commands/, percent-encoded once.",
						schema: { type: "string" },
					},
					{
						name: "Prefer",
						in: "header",
						required: false,
						description: "`return=representation`: answer 200 with the notes the command changed.",
						schema: { type: "string" },
					},
				],
				responses: {
					"200": {
						description:
							"Ran (Prefer: return=representation): the notes it changed (at most 500 listed; `unlisted` " +
							"counts the rest, credited all the same).",
						content: {
							"application/json": {
								schema: {
									type: "object",
									properties: {
										id: { type: "string" },
										changed: { type: "array", items: changed },
										unlisted: { type: "integer" },
									},
								},
							},
						},
					},
					"204": { description: "Ran (the Local REST API's answer)." },
					"403": problemResponse(
						"commands-not-allowed: this key may not run commands; scope-forbidden (40300): this " +
							"key may not change every note (its scope lists), and a command could change any (or " +
							"a request from a web page).",
					),
					"404": problemResponse("command-not-found."),
					"409": problemResponse(
						"command-not-run: Obsidian could not run it now (many need a note open in the active editor).",
					),
					"501": headless,
					...common,
				},
			},
		},
		"/open/{path}": {
			post: {
				summary: "Open a note in Obsidian (not a write; a missing note is 404, never created).",
				parameters: [
					pathParam,
					{
						name: "newLeaf",
						in: "query",
						required: false,
						description: "`true`: in a new tab.",
						schema: { type: "string", enum: ["true", "false"] },
					},
				],
				responses: {
					"200": {
						description: "Opened.",
						content: {
							"application/json": {
								schema: { type: "object", properties: { path: { type: "string" }, opened: { type: "boolean" } } },
							},
						},
					},
					"404": problemResponse("No such note."),
					"501": headless,
					...common,
				},
			},
		},
	};
}
