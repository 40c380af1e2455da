/** The OpenAPI document's schemas (components.schemas): the shapes the routes in openapi.ts refer to by $ref. */
import { CONFLICT_REASONS } from "../../core/conflicts";
import type { JsonValue } from "../response";

export const SCHEMAS: Record<string, JsonValue> = {
	Problem: {
		type: "object",
		required: ["type", "title", "status", "detail", "errorCode", "message"],
		properties: {
			type: {
				type: "string",
				description: "/problems/{code}: the refusal's code, the same in MCP's and the CLI's `error`.",
			},
			title: { type: "string" },
			status: { type: "integer" },
			detail: { type: "string", description: "What happened and what to do next." },
			errorCode: {
				type: "integer",
				description:
					"The Local REST API's five-digit code: its own where it has one (40005, 40010, 40021, " +
					"40053–40058, 40080–40084, 40101, 40510, 42200), else the status × 100.",
			},
			message: {
				type: "string",
				description:
					"For Local REST API clients, which show it cut short: the title and the general next " +
					"step (within 200 characters), then the detail.",
			},
		},
	},
	StaleProblem: {
		allOf: [
			{ $ref: "#/components/schemas/Problem" },
			{
				type: "object",
				properties: {
					path: { type: "string" },
					sentRevision: { type: ["string", "null"] },
					currentRevision: {
						type: ["string", "null"],
						description:
							"The note's revision now, present only when this answer carries every change from " +
							"sentRevision to it (changes complete); null when the note is gone. Otherwise changeTag.",
					},
					changeTag: {
						type: "string",
						description:
							"The note's change tag, instead of currentRevision when the answer does not carry " +
							"every change to it: GET the note for its revision.",
					},
					backupPath: { type: ["string", "null"], description: "Where your refused body was kept, byte for byte." },
					conflictId: { type: "string" },
					changes: {
						type: ["string", "null"],
						description:
							"Unified diff from sentRevision to the note now, when that base is retained; its " +
							"first page (whole lines, at most the answer cap).",
					},
					changesTruncated: { type: "boolean", description: "The diff goes on past this page." },
					changesNext: { type: "string", description: "The GET /changes request for the next page." },
					mergePreview: {
						type: "string",
						description: "With Prefer: merge=auto, the attempted merge with conflict markers (its first page).",
					},
					mergePreviewTruncated: {
						type: "boolean",
						description: "The preview was cut at the answer cap; GET /conflicts/{id}/merge has all of it.",
					},
					mergeRules: {
						type: "array",
						items: { type: "string", enum: ["frontmatter", "tags", "list"] },
						description:
							"Markdown rules that merged parts of the preview where git would have conflicted (absent when none).",
					},
				},
			},
		],
	},
	PatchInstruction: {
		type: "object",
		description:
			"Local REST API 5.1 (markdown-patch 2) instruction: an operation on a scope of a " +
			"target. Unknown fields, and combinations outside the algebra, are refused (400 invalid-patch-instruction) " +
			"before anything is written. A missing target is 404 target-not-found; rejectIfContentPreexists " +
			"with the text already there, or a rename/insert onto an existing key or id, is 409.",
		required: ["targetType", "target", "operation"],
		additionalProperties: false,
		properties: {
			targetType: { type: "string", enum: ["heading", "block", "frontmatter"] },
			target: {
				description:
					"heading: the heading texts, outermost first (a path through the document map's tree); " +
					"block: the id without ^; frontmatter: the key.",
				oneOf: [{ type: "array", items: { type: "string" } }, { type: "string" }],
			},
			operation: {
				type: "string",
				enum: ["replace", "prepend", "append", "delete"],
				description:
					"delete empties a heading's section (the heading stays), removes a block with its " +
					"id, or removes a frontmatter key (scope content).",
			},
			scope: {
				type: "string",
				enum: ["content", "marker", "markerAndContent", "parent"],
				description:
					"content (default): the body. marker: the label (replace renames a heading keeping " +
					"its level, a block id, or a frontmatter key, given in content; delete dissolves the " +
					"heading line or removes the id). markerAndContent: the heading line with its whole " +
					"section, the whole block, or the whole frontmatter entry (prepend/append add a sibling; " +
					"for frontmatter, value is an object of new entries). parent: a heading's place (operation " +
					"replace with destination).",
			},
			within: {
				type: "integer",
				description:
					"Heading targets: one top-level block of the section's own body (0 the first, -1 " +
					"the last). scope content splices content into it literally; markerAndContent adds " +
					"a block beside it; delete removes it. Not with createTargetIfMissing or scope marker.",
			},
			content: {
				type: "string",
				description:
					"Markdown for a heading or block (headings in it are relative: # becomes a child " +
					"of the target, or a sibling under markerAndContent); a string value for frontmatter; " +
					"the new name for a marker replace.",
			},
			value: {
				description:
					"Frontmatter: the value as JSON (markerAndContent: an object of entries). A table " +
					'block: its rows, [["cell", ...], ...].',
			},
			destination: {
				type: "object",
				required: ["parent", "place"],
				additionalProperties: false,
				description: "With scope parent: where the heading section moves (it is re-levelled to fit there).",
				properties: {
					parent: {
						description: "The new parent's heading path, or null (or []) for the note's top level.",
						oneOf: [{ type: "array", items: { type: "string" } }, { type: "null" }],
					},
					place: {
						description:
							'"first", "last", or {"before": path} / {"after": path} of a sibling heading (its full path or its text).',
						oneOf: [
							{ type: "string", enum: ["first", "last"] },
							{
								type: "object",
								required: ["before"],
								properties: { before: { type: "array", items: { type: "string" } } },
							},
							{
								type: "object",
								required: ["after"],
								properties: { after: { type: "array", items: { type: "string" } } },
							},
						],
					},
				},
			},
			ifMatch: {
				type: "string",
				description: "The revision you read: the document map's version or the ETag, bare or quoted.",
			},
			createTargetIfMissing: { type: "boolean" },
			rejectIfContentPreexists: {
				type: "boolean",
				description:
					"Refuse an append or prepend whose text (trimmed) is already in the target (409 content-preexists): " +
					"a retry never lands twice.",
			},
		},
	},
	DocumentMap: {
		type: "object",
		description: "Markdown-Patch-Version 2 (the default).",
		properties: {
			headings: {
				type: "object",
				description:
					"Each heading's text maps to its child headings; duplicate siblings share one key " +
					"(a patch on them is refused as ambiguous).",
			},
			blocks: {
				type: "array",
				items: { type: "string" },
				description: "Block ids (^id) outside code, without ^, each once.",
			},
			frontmatterFields: { type: "array", items: { type: "string" } },
			version: {
				type: "string",
				description:
					"The note's part token (the ETag's value): send it as ifMatch to PATCH what the map " +
					"shows. It does not replace or delete the whole note: GET the note for that.",
			},
		},
	},
	FlatDocumentMap: {
		type: "object",
		description: "Markdown-Patch-Version 1 (answered with Deprecation: true).",
		properties: {
			headings: { type: "array", items: { type: "string" }, description: "Heading paths joined with ::." },
			blocks: { type: "array", items: { type: "string" } },
			frontmatterFields: { type: "array", items: { type: "string" } },
		},
	},
	Note: {
		type: "object",
		properties: {
			path: { type: "string" },
			content: { type: "string" },
			revision: { type: "string" },
			stat: {
				type: "object",
				properties: { ctime: { type: "number" }, mtime: { type: "number" }, size: { type: "number" } },
			},
			frontmatter: {
				type: ["object", "null"],
				description: "null when the frontmatter cannot be read (see warnings).",
			},
			warnings: {
				type: "array",
				items: { type: "string" },
				description: "Why frontmatter is null: not valid YAML, not a set of keys, too large, or nested too deeply.",
			},
			tags: {
				type: "array",
				items: { type: "string" },
				description: "Frontmatter tags, then inline #tags outside code; without '#', each once.",
			},
			links: {
				type: "array",
				items: { type: "string" },
				description:
					"Vault paths of the files this note links to (wikilinks, embeds, markdown links, " +
					"frontmatter wikilinks), each once. Resolved by Obsidian in Obsidian; headless, by " +
					"Obsidian's rules (exact path, then the note's own folder, then the shortest path).",
			},
			unresolvedLinks: {
				type: "array",
				items: { type: "string" },
				description: "Link paths, as written (no #heading or alias), that lead to no file, each once.",
			},
			backlinks: {
				type: "array",
				items: { type: "string" },
				description: "Vault paths of the notes that link to this one (not .bak notes), sorted.",
			},
		},
	},
	Listing: {
		type: "object",
		properties: {
			files: {
				type: "array",
				items: { type: "string" },
				description: "Names as in the Local REST API; folders end in /.",
			},
			entries: {
				type: "array",
				items: {
					type: "object",
					properties: {
						name: { type: "string" },
						path: { type: "string" },
						type: { type: "string", enum: ["file", "folder"] },
						changeTag: {
							type: "string",
							description:
								"Changes whenever the note does; a listing shows no content, so it is never a revision " +
								"(it passes no If-Match).",
						},
						unreadable: {
							type: "string",
							description: "Why a note cannot be served (it is not UTF-8, say); it then has no change tag.",
						},
						size: { type: "number" },
						mtime: { type: "number" },
					},
				},
			},
		},
	},
	Conflict: {
		type: "object",
		properties: {
			id: { type: "string" },
			path: { type: "string" },
			reason: { type: "string", enum: [...CONFLICT_REASONS] },
			source: {
				type: "string",
				enum: ["outside"],
				description:
					"outside: another program saved the file directly (nothing was refused): outside-save " +
					"kept in the .bak what its save replaced; outside-over-typing kept its text, which " +
					"the person's unsaved typing replaced.",
			},
			sentRevision: { type: ["string", "null"] },
			currentRevision: { type: ["string", "null"] },
			proposedRevision: { type: "string" },
			backupPath: { type: ["string", "null"] },
			agent: { type: "string" },
			time: { type: "string", format: "date-time" },
			status: { type: "string", enum: ["open", "resolved", "dismissed"] },
			resolvedAt: { type: "string", format: "date-time" },
			resolvedRevision: { type: "string" },
			agentTaken: {
				type: "string",
				enum: ["whole", "partial", "none"],
				description: "How much of the agent's proposal the resolution kept.",
			},
			resolvedBy: { type: "string", description: '"you" (the merge modal) or the key name whose write resolved it.' },
		},
	},
};
