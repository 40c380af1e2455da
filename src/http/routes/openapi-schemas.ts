/** The OpenAPI document's schemas (components.schemas): the shapes the routes in openapi.ts refer to by $ref. */
import type { JsonValue } from "../response";

export const SCHEMAS: Record<string, JsonValue> = {
		Problem: {
			type: "object",
			required: ["type", "title", "status", "detail", "errorCode", "message"],
			properties: {
				type: { type: "string", description: "/problems/{code}: the refusal's code, the same in MCP's and the CLI's `error`." },
				title: { type: "string" },
				status: { type: "integer" },
				detail: { type: "string", description: "What happened and what to do next." },
				errorCode: { type: "integer", description: "The Local REST API's five-digit code: its own where it has one (40005, 40010, 40021, 40053–40058, 40080–40084, 40101, 40510, 42200), else the status × 100." },
				message: { type: "string", description: "For Local REST API clients, which show it cut short: the title and the general next step (within 200 characters), then the detail." },
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
						currentRevision: { type: ["string", "null"], description: "The note's revision now, present only when this answer carries every change from sentRevision to it (changes complete); null when the note is gone. Otherwise changeTag." },
						changeTag: { type: "string", description: "The note's change tag, instead of currentRevision when the answer does not carry every change to it: GET the note for its revision." },
						backupPath: { type: ["string", "null"], description: "Where your refused body was kept, byte for byte." },
						conflictId: { type: "string" },
						changes: { type: ["string", "null"], description: "Unified diff from sentRevision to the note now, when that base is retained; its first page (whole lines, at most the answer cap)." },
						changesTruncated: { type: "boolean", description: "The diff goes on past this page." },
						changesNext: { type: "string", description: "The GET /changes request for the next page." },
						mergePreview: { type: "string", description: "With Prefer: merge=auto, the attempted merge with conflict markers (its first page)." },
						mergePreviewTruncated: { type: "boolean", description: "The preview was cut at the answer cap; GET /conflicts/{id}/merge has all of it." },
						mergeRules: { type: "array", items: { type: "string", enum: ["frontmatter", "tags", "list"] }, description: "Markdown rules that merged parts of the preview where git would have conflicted (absent when none)." },
					},
				},
			],
		},
		PatchInstruction: {
			type: "object",
			description: "Local REST API 5.x (markdown-patch 2) instruction. Unknown fields are refused (400 invalid-patch-instruction), as are `scope` other than `content`, `destination` (moves), table rows in `value` and `rejectIfContentPreexists: true`.",
			required: ["targetType", "target", "operation"],
			additionalProperties: false,
			properties: {
				targetType: { type: "string", enum: ["heading", "block", "frontmatter"] },
				target: { description: "heading: the heading texts, outermost first (a path through the document map's tree); block: the id without ^; frontmatter: the key.", oneOf: [{ type: "array", items: { type: "string" } }, { type: "string" }] },
				operation: { type: "string", enum: ["replace", "prepend", "append", "delete"], description: "delete empties a heading's section (the heading stays), removes a block with its id, or removes a frontmatter key." },
				scope: { type: "string", enum: ["content"] },
				content: { type: "string", description: "Markdown for a heading or block (headings in it are relative: # becomes a child of the target); a string value for frontmatter." },
				value: { description: "Frontmatter: the value as JSON." },
				ifMatch: { type: "string", description: "The revision you read: the document map's version or the ETag, bare or quoted." },
				createTargetIfMissing: { type: "boolean" },
				rejectIfContentPreexists: { type: "boolean", enum: [false] },
			},
		},
		DocumentMap: {
			type: "object",
			description: "Markdown-Patch-Version 2 (the default).",
			properties: {
				headings: { type: "object", description: "Each heading's text maps to its child headings; duplicate siblings share one key (a patch on them is refused as ambiguous)." },
				blocks: { type: "array", items: { type: "string" }, description: "Block ids (^id) outside code, without ^, each once." },
				frontmatterFields: { type: "array", items: { type: "string" } },
				version: { type: "string", description: "The note's part token (the ETag's value): send it as ifMatch to PATCH what the map shows. It does not replace or delete the whole note: GET the note for that." },
			},
		},
		FlatDocumentMap: {
			type: "object",
			description: "Markdown-Patch-Version 1 (answered with Deprecation: true).",
			properties: { headings: { type: "array", items: { type: "string" }, description: "Heading paths joined with ::." }, blocks: { type: "array", items: { type: "string" } }, frontmatterFields: { type: "array", items: { type: "string" } } },
		},
		Note: {
			type: "object",
			properties: {
				path: { type: "string" },
				content: { type: "string" },
				revision: { type: "string" },
				stat: { type: "object", properties: { ctime: { type: "number" }, mtime: { type: "number" }, size: { type: "number" } } },
				frontmatter: { type: ["object", "null"], description: "null when the frontmatter cannot be read (see warnings)." },
				warnings: { type: "array", items: { type: "string" }, description: "Why frontmatter is null: not valid YAML, not a set of keys, too large, or nested too deeply." },
				tags: { type: "array", items: { type: "string" }, description: "Frontmatter tags, then inline #tags outside code; without '#', each once." },
			},
		},
		Listing: {
			type: "object",
			properties: {
				files: { type: "array", items: { type: "string" }, description: "Names as in the Local REST API; folders end in /." },
				entries: { type: "array", items: { type: "object", properties: { name: { type: "string" }, path: { type: "string" }, type: { type: "string", enum: ["file", "folder"] }, changeTag: { type: "string", description: "Changes whenever the note does; a listing shows no content, so it is never a revision (it passes no If-Match)." }, unreadable: { type: "string", description: "Why a note cannot be served (it is not UTF-8, say); it then has no change tag." }, size: { type: "number" }, mtime: { type: "number" } } } },
			},
		},
		Conflict: {
			type: "object",
			properties: {
				id: { type: "string" },
				path: { type: "string" },
				reason: { type: "string", enum: ["stale", "exists", "read-expired", "content-loss", "note-in-use"] },
				sentRevision: { type: ["string", "null"] },
				currentRevision: { type: ["string", "null"] },
				proposedRevision: { type: "string" },
				backupPath: { type: ["string", "null"] },
				agent: { type: "string" },
				time: { type: "string", format: "date-time" },
				status: { type: "string", enum: ["open", "resolved", "dismissed"] },
				resolvedAt: { type: "string", format: "date-time" },
				resolvedRevision: { type: "string" },
				agentTaken: { type: "string", enum: ["whole", "partial", "none"], description: "How much of the agent's proposal the resolution kept." },
				resolvedBy: { type: "string", description: "\"you\" (the merge modal) or the key name whose write resolved it." },
			},
		},
};
