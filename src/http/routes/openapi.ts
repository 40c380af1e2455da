/** GET /openapi.json: the OpenAPI 3.1 description of every route. A test keeps it in step with the route table. */
import { DEFAULT_PORT } from "../../settings";
import { PROBLEM_TYPES } from "../problems";
import { json, type ApiResponse, type JsonValue } from "../response";
import { historyPaths } from "./openapi-history";
import { searchPaths } from "./openapi-search";
import { moveOperations } from "./openapi-move";
import { tagsPaths } from "./openapi-tags";
import { periodicPaths } from "./openapi-periodic";
import { commandPaths } from "./openapi-commands";
import { PROPOSAL_SCHEMA, proposalPaths } from "./openapi-proposals";
import { SCHEMAS } from "./openapi-schemas";

/** The rule every answer follows for the revisions it names (src/core/revision-tokens.ts). */
const TOKENS =
	"Revision tokens come only with the content they name, so an agent can never write " +
	"from memory over text it never saw. Three forms: (1) the revision itself (a strong " +
	"ETag, 43 base64url characters), from a read of the whole note, a write of the whole " +
	"note, or a 412 that carries every change from the revision you sent to the note now: " +
	"it passes If-Match for every write. (2) A part token, `part.<hash>`, from a document " +
	"map (`version`), a section read through a URL target or Target headers, or the answer " +
	"to an append, patch or edit of a note you had not read whole (or a merge you have " +
	"not seen): it passes If-Match for PATCH (and appends and edits), which change only " +
	"the part they name, never for a whole-note PUT or a DELETE (428, sentToken part-token). " +
	'(3) A change tag, `tag.<hash>`, sent as a weak ETag `W/"tag.<hash>"`, from everything ' +
	"that shows no content: HEAD, a 428, a 304 reached by a change tag, folder listings " +
	"(`changeTag`), history, activity and conflict records, a 412 whose diff was cut or " +
	"missing: it serves If-None-Match and change detection, and never passes If-Match " +
	"(428, sentToken change-tag). Both derived forms are one-way hashes: neither gives " +
	"back the revision. A token may be sent quoted (as an ETag) or bare.";

const problemRef = { $ref: "#/components/schemas/Problem" };
const problemResponse = (description: string) => ({
	description,
	content: { "application/problem+json": { schema: problemRef } },
});
const etagHeader = {
	ETag: {
		description:
			"The note's revision, in the form this answer may hand out (see the API description): " +
			"the revision itself after a whole read or write, a part token after a part, a weak " +
			"change tag when no content was shown.",
		schema: { type: "string" },
	},
};
const pathParam = {
	name: "path",
	in: "path",
	required: true,
	description: "Vault-relative note path, each segment percent-encoded once.",
	schema: { type: "string" },
};
const ifMatch = {
	name: "If-Match",
	in: "header",
	required: false,
	description:
		"The ETag from your last read of the whole note, quoted or bare. Required to update " +
		"or delete an existing note (a part token or a change tag is not enough: 428).",
	schema: { type: "string" },
};
const ifNoneMatch = {
	name: "If-None-Match",
	in: "header",
	required: false,
	description:
		"`*` to create only; with a tag on GET, 304 when unchanged (a 304 does not count as having read the note).",
	schema: { type: "string" },
};
const allowEmpty = {
	name: "Allow-Empty",
	in: "header",
	required: false,
	description: "`true`: an empty body may replace a non-empty note (otherwise 409 empty-body).",
	schema: { type: "string", enum: ["true"] },
};
const patchHeaders = [
	{
		name: "Operation",
		in: "header",
		required: true,
		schema: { type: "string", enum: ["append", "prepend", "replace"] },
	},
	{
		name: "Target-Type",
		in: "header",
		required: true,
		schema: { type: "string", enum: ["heading", "block", "frontmatter"] },
	},
	{
		name: "Target",
		in: "header",
		required: true,
		description:
			"Percent-encoded. A heading path, outermost first (`Heading 1::Subheading`; under " +
			'Markdown-Patch-Version: 2, percent-encoded JSON: `["Heading 1","Subheading"]`), a ' +
			"block id or a frontmatter key.",
		schema: { type: "string" },
	},
	{
		name: "Target-Delimiter",
		in: "header",
		required: false,
		description: "Separates nested headings in Target; default `::`.",
		schema: { type: "string" },
	},
	{
		name: "Create-Target-If-Missing",
		in: "header",
		required: false,
		description: "`true`: add a missing heading (at the end of its parent) or frontmatter key.",
		schema: { type: "string", enum: ["true", "false"] },
	},
	{
		name: "Target-Scope",
		in: "header",
		required: false,
		description:
			"Format 1: `content` (default), `marker` (replace renames the heading: the body is " +
			"the whole new heading line, or its text), `markerAndContent` (the heading line and " +
			"its section). Raw-content mode also `parent` (a move, with Destination). Beside a " +
			"JSON instruction (whose field is `scope`) it is 400 unsupported-header.",
		schema: { type: "string", enum: ["content", "marker", "markerAndContent", "parent"] },
	},
	{
		name: "Reject-If-Content-Preexists",
		in: "header",
		required: false,
		description:
			"`true`: an append or prepend whose text (trimmed) is already in the target is refused " +
			"(format 2: 409 content-preexists; format 1: 400 invalid-patch), so a retry never " +
			"lands twice. `Apply-If-Content-Preexists: false`, its older opposite, does the same.",
		schema: { type: "string", enum: ["true", "false"] },
	},
	{
		name: "Apply-If-Content-Preexists",
		in: "header",
		required: false,
		description:
			"Before Local REST API 5.1: `false` refuses text already in the target (as Reject-If-Content-Preexists: " +
			"true); `true` adds it anyway (the default).",
		schema: { type: "string", enum: ["true", "false"] },
	},
	{
		name: "Trim-Target-Whitespace",
		in: "header",
		required: false,
		description:
			"Format 1 only: `true` drops the blank lines between a heading and its body on prepend, " +
			"and the trailing whitespace of its body on append. In format 2 (which owns that whitespace) " +
			"it is 400 unsupported-header.",
		schema: { type: "string", enum: ["true", "false"] },
	},
];
const rawPatchHeaders = [
	{
		name: "Target-Scope",
		in: "header",
		required: false,
		description:
			"`content` (default: the body), `marker` (replace renames a heading keeping its level, " +
			"or a block id, or a frontmatter key, from the body's text; delete removes only the " +
			"heading line or id), `markerAndContent` (the heading and its whole section, the whole " +
			"block, the whole frontmatter entry; prepend/append add a sibling), `parent` (replace " +
			"with Destination: a move).",
		schema: { type: "string", enum: ["content", "marker", "markerAndContent", "parent"] },
	},
	{
		name: "Within",
		in: "header",
		required: false,
		description:
			"Heading targets: one top-level block of the section's own body, by index (0 the " +
			"first, -1 the last; a lone ^id line is not counted). With scope content the body " +
			"is spliced in literally (an append continues the block); with markerAndContent a " +
			"new block goes beside it; delete removes it. Out of range: 404 target-not-found.",
		schema: { type: "string", pattern: "^-?[0-9]+$" },
	},
	{
		name: "Destination",
		in: "header",
		required: false,
		description:
			"With Target-Scope: parent and Operation: replace, and no body: where the heading " +
			'section moves, as percent-encoded JSON {"parent": ["Heading"] | null, "place": "first" ' +
			'| "last" | {"before": [...]} | {"after": [...]}}.',
		schema: { type: "string" },
	},
	{
		name: "Reject-If-Content-Preexists",
		in: "header",
		required: false,
		description: "`true`: an append or prepend whose text is already in the target is 409 content-preexists.",
		schema: { type: "string", enum: ["true", "false"] },
	},
];
const warningsHeader = {
	"Markdown-Patch-Warnings": {
		description:
			"Present when the patch landed with advice, e.g. a heading that would go past level " +
			"6 written at level 6: percent-encoded JSON, a list of {code, message} (code `heading-depth-overflow`).",
		schema: { type: "string" },
	},
};
const patchVersion = {
	name: "Markdown-Patch-Version",
	in: "header",
	required: false,
	description:
		"The Local REST API 5.x format switch. `2` (the default): JSON PATCH instructions, " +
		"URL targets, the nested document map. `1`: the header PATCH, Target-Type/Target on " +
		"GET, PUT and POST, and the flat `A::B` document map, answered with `Deprecation: " +
		'true; sunset-version="6.0"` as 5.1 does. Any other value is 400 invalid-patch-version (40082).',
	schema: { type: "string", enum: ["1", "2"] },
};
const lenientIfMatch = {
	name: "If-Match",
	in: "header",
	required: false,
	description:
		"The revision you read: the ETag or the document map's `version` (a part token passes " +
		"here), quoted or bare. Without it, the revision this key last read is used (a read " +
		"of part of the note counts for a patch); never read: 428.",
	schema: { type: "string" },
};
const targetParams = [
	pathParam,
	{
		name: "targetType",
		in: "path",
		required: true,
		description:
			"A URL is a target only when a segment ending in `.md` is followed by `heading`, " +
			"`frontmatter` or `block` and at least one more segment; every other URL under /vault/ " +
			"names a note or folder.",
		schema: { type: "string", enum: ["heading", "frontmatter", "block"] },
	},
	{
		name: "target",
		in: "path",
		required: true,
		description:
			"heading: one segment per heading level, outermost first (`Plan/Next%20steps`); frontmatter: " +
			"the key; block: the id without `^`. Each segment percent-encoded once (`%2F` for " +
			"a slash inside a heading).",
		schema: { type: "string" },
	},
	patchVersion,
];
const rawBody = {
	required: true,
	content: {
		"text/markdown": {
			schema: {
				type: "string",
				description: "The heading's or block's new text; for frontmatter, the value as a string.",
			},
		},
		"application/json": {
			schema: { description: 'A frontmatter value as JSON, or a table block\'s rows: [["cell", "cell"], ...].' },
		},
	},
};
const patchedNote = {
	description: "Written (or already so): the patched note, as Local REST API 5.1 answers.",
	headers: { ...etagHeader, ...warningsHeader },
	content: { "text/markdown": { schema: { type: "string" } } },
};
const formatTwoRefusals = {
	"404": problemResponse(
		"No such note (note-not-found), or the target (or the Within block) is not in the note (target-not-found).",
	),
	"409": problemResponse(
		"Reject-If-Content-Preexists and the text is already there (content-preexists), or " +
			"a frontmatter key or block id rename/insert onto one that exists (target-exists); " +
			"nothing was written.",
	),
	"422": problemResponse(
		"Targeting headers as well as a URL target, or a whole instruction (application/vnd.olrapi.patch-instruction+json) " +
			"sent to a URL target (conflicting-target).",
	),
};
const created = {
	description:
		"Created or replaced (or already identical): no body, as the Local REST API answers; " +
		"the ETag is the note's revision.",
	headers: etagHeader,
};
const folder = problemResponse(
	"A folder (`/vault/`, or a path ending in /): folder-not-a-note (40510), nothing written.",
);
const partHeaders = [
	{
		name: "Target-Type",
		in: "header",
		required: false,
		description:
			"With Target, under Markdown-Patch-Version: 1: the request acts on that part of the " +
			"note only, as a URL target does (the Local REST API 4.x form). Without that version: " +
			"400 header-target-needs-version (40083), as 5.1 answers.",
		schema: { type: "string", enum: ["heading", "block", "frontmatter"] },
	},
	{
		name: "Target",
		in: "header",
		required: false,
		description:
			"Percent-encoded: a heading path joined by Target-Delimiter (default `::`), a block id or a frontmatter key.",
		schema: { type: "string" },
	},
];
const common = {
	"400": problemResponse(
		"Invalid path (a symbolic link that loops included), malformed header (two Host lines " +
			"included) or body. Every problem also carries the Local REST API's errorCode and message.",
	),
	"401": problemResponse("Missing or wrong API key."),
	"403": problemResponse(
		"A request from a web page (Origin) that is not allowed; an agent changing a .bak " +
			"note (backup-read-only); or scope-forbidden (40300): a change this key's scope does " +
			"not allow (a note outside its read list, a read-only one, one it may only propose " +
			"to on a host without proposals, or a delete, move or copy of one it may only propose " +
			"to), or any request with a key whose scope lists in settings are malformed (it is " +
			"not served). The detail names the rule; nothing was written.",
	),
	"409": problemResponse("The note is not UTF-8 text (note-not-utf8), so it is neither served nor changed."),
	"421": problemResponse("Host header is not a loopback name on this port."),
	"503": problemResponse(
		"No connection could be spared (server-busy), or the host is still starting and does " +
			"not yet know every note's revision (starting-up); nothing was read or written. Retry " +
			"after Retry-After.",
	),
};
/** A change to a note the key may only propose to (issue 24): it waits for the person instead of being written. */
const proposed = {
	description:
		"The key may only propose changes to this note: nothing was written, the change waits " +
		"for the person (kept byte for byte at backupPath). Location: /proposals/{id}, to " +
		"follow with GET ?wait=N.",
	headers: { Location: { description: "/proposals/{proposalId}", schema: { type: "string" } } },
	content: {
		"application/json": {
			schema: {
				type: "object",
				properties: {
					proposalId: { type: "string" },
					path: { type: "string" },
					backupPath: { type: "string" },
					status: { type: "string", enum: ["pending"] },
					detail: { type: "string" },
				},
			},
		},
	},
};
const refusals = {
	"409": problemResponse(
		"content-loss: a tokenless write would erase most of the note (the body is kept as " +
			".bak); empty-body: an empty body over a non-empty note (send Allow-Empty: true to " +
			"mean it); name-clash: a note whose name differs only in Unicode normalization exists; " +
			"note-not-utf8: the note is not UTF-8 text.",
	),
	"412": {
		description:
			"Stale revision (or the note exists under If-None-Match). Nothing was written; the body is kept as .bak.",
		content: { "application/problem+json": { schema: { $ref: "#/components/schemas/StaleProblem" } } },
	},
	"413": problemResponse("Body over the size limit."),
	"428": problemResponse(
		"precondition-required: If-Match is required to change an existing note, and must " +
			"be a revision you were handed with the whole note (sentToken: change-tag or part-token " +
			"when it was not; lastReadPart when your last read showed only part of it). Carries " +
			"only the note's change tag: GET the note for its revision.",
	),
};

const mcpResponses = {
	"200": { description: "A JSON-RPC answer (or, on GET, an event stream), as the MCP specification describes." },
	"404": {
		description: "Unknown session (ended, expired, or opened with another key): start a new one with initialize.",
	},
	...common,
};

export const OPENAPI: JsonValue = {
	openapi: "3.1.0",
	info: {
		title: "Revision Guard agent API",
		version: "1",
		description:
			"Guarded reads and writes of an Obsidian vault for AI agents. Every update of an " +
			"existing note must send the ETag it read as If-Match; stale writes are refused with " +
			"412 and kept as .bak notes. " +
			TOKENS,
	},
	servers: [{ url: `http://127.0.0.1:${DEFAULT_PORT}` }],
	security: [{ bearer: [] }],
	paths: {
		"/": {
			get: {
				summary:
					"Service status (no key needed), with the fields Local REST API clients read: status, " +
					'versions.obsidian (Obsidian\'s version; "headless" on the headless host), versions.self, ' +
					'manifest, authenticated. `service` is "Revision Guard" and `apiCompatibility` "Obsidian ' +
					'Local REST API 5.1".',
				security: [],
				responses: { "200": { description: "Service, versions, vault, and whether the caller is authenticated." } },
			},
		},
		"/openapi.json": {
			get: { summary: "This document.", responses: { "200": { description: "OpenAPI 3.1 document." }, ...common } },
		},
		"/problems/{name}": {
			get: {
				summary:
					"What a problem type means and how to proceed. Problem types are the refusal codes " +
					"MCP's `error` and the CLI's `error` use too.",
				parameters: [
					{ name: "name", in: "path", required: true, schema: { type: "string", enum: Object.keys(PROBLEM_TYPES) } },
				],
				responses: {
					"200": { description: "Title, status, next step and the Local REST API errorCode." },
					"404": problemResponse("Unknown problem type."),
				},
			},
		},
		"/vault/{path}": {
			get: {
				summary:
					"Read a note (raw markdown, JSON with Accept: application/vnd.olrapi.note+json, or " +
					"its document map with Accept: application/vnd.olrapi.document-map+json), or list " +
					"a folder when the path ends in /. Accept: application/json alone gets the markdown, " +
					"as from the Local REST API.",
				parameters: [pathParam, ifNoneMatch, patchVersion, ...partHeaders],
				responses: {
					"200": {
						description:
							"The note and its ETag (the revision), its document map (a read of part of the note: " +
							"`version` and the ETag are a part token, which can patch but not replace it), or " +
							"a folder listing (each note's change tag, never a revision).",
						headers: etagHeader,
						content: {
							"text/markdown": { schema: { type: "string" } },
							"application/vnd.olrapi.note+json": { schema: { $ref: "#/components/schemas/Note" } },
							"application/json": { schema: { $ref: "#/components/schemas/Listing" } },
							"application/vnd.olrapi.document-map+json": {
								schema: {
									oneOf: [
										{ $ref: "#/components/schemas/DocumentMap" },
										{ $ref: "#/components/schemas/FlatDocumentMap" },
									],
								},
							},
							"text/html": {
								schema: {
									type: "string",
									description:
										"With Accept: text/html (and not text/markdown): the note rendered (Obsidian's renderer " +
										"in Obsidian, markdown-it headless), safe to show: raw HTML in the note is escaped " +
										"headless and reduced to plain document elements in Obsidian, nothing that runs is " +
										"kept. A rendering is a read of part of the note: the ETag is a part token.",
								},
							},
						},
					},
					"406": problemResponse(
						"not-renderable: HTML was asked for and this host cannot render (no renderer), or " +
							"the note is over 1 MB of text or its HTML over 4 MB.",
					),
					"304": { description: "Unchanged since the If-None-Match tag.", headers: etagHeader },
					"404": problemResponse("No such note or folder."),
					...common,
				},
			},
			head: {
				summary:
					"The headers a GET would send, but for the ETag: HEAD shows no content, so it is " +
					"the note's weak change tag (it answers If-None-Match; it passes no If-Match).",
				parameters: [pathParam],
				responses: { "200": { description: "Exists.", headers: etagHeader }, "404": { description: "No such note." } },
			},
			put: {
				summary:
					"Create a note, or replace it when If-Match names its current revision. With Prefer: " +
					"merge=auto, a stale write whose three-way merge is clean is merged instead of refused.",
				parameters: [
					pathParam,
					ifMatch,
					ifNoneMatch,
					allowEmpty,
					...partHeaders,
					{
						name: "Prefer",
						in: "header",
						required: false,
						description: "`merge=auto`: merge with the newer note when If-Match is stale and the merge is clean.",
						schema: { type: "string" },
					},
				],
				requestBody: { required: true, content: { "text/markdown": { schema: { type: "string" } } } },
				responses: {
					"200": {
						description:
							"Merged (Prefer: merge=auto): the stale write was merged with the newer note. Preference-Applied: merge=auto.",
						headers: etagHeader,
						content: {
							"application/json": {
								schema: {
									type: "object",
									properties: {
										path: { type: "string" },
										revision: { type: "string" },
										merged: { type: "boolean" },
										mergeRules: {
											type: "array",
											items: { type: "string", enum: ["frontmatter", "tags", "list"] },
											description:
												"Markdown rules that merged parts of the note where a line merge would have conflicted " +
												"(absent when none): check those parts.",
										},
									},
								},
							},
						},
					},
					"204": created,
					"202": proposed,
					"405": folder,
					...refusals,
					...common,
				},
			},
			post: {
				summary:
					"Append to a note (creating it if missing). If-Match is honoured when sent. The body " +
					"is text: a Content-Type other than text/* or application/x-www-form-urlencoded (curl's " +
					"default) is 400 text-body-required (40010), never appended.",
				parameters: [pathParam, ifMatch, ...partHeaders],
				requestBody: { required: true, content: { "text/markdown": { schema: { type: "string" } } } },
				responses: {
					"204": { description: "Appended (or created).", headers: etagHeader },
					"202": proposed,
					"405": folder,
					...refusals,
					...common,
				},
			},
			delete: {
				summary: "Move a note to the trash; needs If-Match.",
				parameters: [pathParam, ifMatch],
				responses: {
					"204": { description: "Trashed." },
					"404": problemResponse("No such note."),
					"405": folder,
					"412": refusals["412"],
					"428": refusals["428"],
					...common,
				},
			},
			patch: {
				summary:
					"Change one part of a note: a heading's section, a block (`^id`) or a frontmatter " +
					"key. Format 2 (the default): a JSON PatchInstruction body, or (with Markdown-Patch-Version: " +
					"2) Target-Type/Target headers and the payload as the body. Format 1 (Markdown-Patch-Version: " +
					"1): the Operation/Target-Type/Target headers, answered with Deprecation; targeting " +
					"headers without a version are 400 patch-version-required (40084), as 5.1 answers. " +
					"Every format answers 200 with the patched note. The patched note is written like " +
					"a PUT: ifMatch or If-Match (or, without either, the revision this key last read) " +
					"must be current; a stale one is 412 with the patched note kept as .bak; no token " +
					"and no read is 428.",
				parameters: [
					pathParam,
					ifMatch,
					patchVersion,
					...patchHeaders.map((header) => ({ ...header, required: false })),
					...rawPatchHeaders.filter((header) => header.name === "Within" || header.name === "Destination"),
				],
				requestBody: {
					required: true,
					content: {
						"application/json": {
							schema: {
								oneOf: [
									{ $ref: "#/components/schemas/PatchInstruction" },
									{
										description:
											"Format 1 and raw-content mode: a frontmatter value, or a table block's rows, as JSON.",
									},
								],
							},
						},
						"application/vnd.olrapi.patch-instruction+json": {
							schema: { $ref: "#/components/schemas/PatchInstruction" },
							description:
								"An instruction that names its own target: beside Target-Type/Target headers, 422 conflicting-target.",
						},
						"text/markdown": {
							schema: { type: "string", description: "Format 1, or format 2 with header targeting: the payload." },
						},
					},
				},
				responses: {
					"200": patchedNote,
					"202": proposed,
					...formatTwoRefusals,
					"405": folder,
					"412": refusals["412"],
					"413": refusals["413"],
					"428": refusals["428"],
					...common,
					"400": problemResponse(
						"An instruction with an unknown field or an unsupported part (invalid-patch-instruction, " +
							"40081), missing or malformed PATCH headers (invalid-patch, 40053–40057), a header " +
							"that format does not read (unsupported-header), targeting headers without a version " +
							"(patch-version-required, 40084), a Markdown-Patch-Version other than 1 or 2 (40082), " +
							"a frontmatter that is not valid YAML (invalid-frontmatter, 40005), or a value that " +
							"cannot be applied; nothing was written.",
					),
				},
			},
			additionalOperations: moveOperations({ problemResponse, pathParam, etagHeader, common }),
		},
		"/vault/{path}/{targetType}/{target}": {
			get: {
				summary:
					"Read one part of a note (Local REST API 5.x URL targets): a heading's section or " +
					"a block's text as markdown, a frontmatter value as JSON. Counts as a read of that " +
					"part: a tokenless PATCH may stand on it, a PUT or DELETE may not.",
				parameters: [
					...targetParams,
					{
						name: "Target-Scope",
						in: "header",
						required: false,
						description:
							"`content` (default); `marker`: the label alone (a heading's text, a block's id, " +
							"a frontmatter key); `markerAndContent`: the whole node as a PATCH replace at that " +
							"scope takes it (a heading's section with its own line as `#`, a whole block, a frontmatter " +
							"entry as {key: value}). `parent` is 400.",
						schema: { type: "string", enum: ["content", "marker", "markerAndContent"] },
					},
				],
				responses: {
					"200": {
						description: "The part, with the note's part token as ETag (it can patch the note, never replace it).",
						headers: etagHeader,
						content: { "text/markdown": { schema: { type: "string" } }, "application/json": { schema: {} } },
					},
					"404": problemResponse("No such note (note-not-found), or the note has no such part (target-not-found)."),
					...common,
					"400": problemResponse(
						"A frontmatter value of a note whose frontmatter is not valid YAML (invalid-frontmatter, " +
							"40005), a Target-Scope of parent, or an ambiguous heading.",
					),
				},
			},
			put: {
				summary: "Replace one part of a note, guarded like PUT /vault/{path}.",
				parameters: [...targetParams, lenientIfMatch],
				requestBody: rawBody,
				responses: {
					"200": patchedNote,
					"202": proposed,
					"404": problemResponse("No such note."),
					"412": refusals["412"],
					"428": refusals["428"],
					"422": problemResponse("Targeting headers as well as a URL target (conflicting-target)."),
					...common,
					"400": problemResponse(
						"A target that is not in the note, a JSON body on a heading or block, or an empty body; nothing was written.",
					),
				},
			},
			post: {
				summary:
					"Append to one part of a note, guarded like PUT /vault/{path} (a tokenless append " +
					"is held to this key's last read).",
				parameters: [...targetParams, lenientIfMatch, rawPatchHeaders[3]!],
				requestBody: rawBody,
				responses: {
					"200": patchedNote,
					"202": proposed,
					"404": problemResponse("No such note."),
					"412": refusals["412"],
					"428": refusals["428"],
					"422": problemResponse("Targeting headers as well as a URL target (conflicting-target)."),
					...common,
				},
			},
			patch: {
				summary:
					"Local REST API 5.x raw-content mode: the Operation header (append, prepend, replace " +
					"or delete) applied to the part the URL names, with Target-Scope, Within, Destination " +
					"and Reject-If-Content-Preexists as LRA 5.1 reads them, the body being the payload " +
					"(none for a delete or a move); guarded like PUT /vault/{path}.",
				parameters: [
					...targetParams,
					lenientIfMatch,
					{
						name: "Operation",
						in: "header",
						required: true,
						schema: { type: "string", enum: ["append", "prepend", "replace", "delete"] },
					},
					{
						name: "Create-Target-If-Missing",
						in: "header",
						required: false,
						schema: { type: "string", enum: ["true", "false"] },
					},
					...rawPatchHeaders,
				],
				requestBody: { ...rawBody, required: false },
				responses: {
					"200": patchedNote,
					"202": proposed,
					...formatTwoRefusals,
					"412": refusals["412"],
					"428": refusals["428"],
					...common,
					"400": problemResponse(
						"No Operation, Markdown-Patch-Version: 1 (URL targets are format 2's: invalid-patch-version), " +
							"an empty body, or a value that cannot be applied; nothing was written.",
					),
				},
			},
		},
		"/active/": {
			get: {
				summary:
					"Read the note open in Obsidian's active editor, as GET /vault/{path} does (Content-Location " +
					"names it). 404 when none is (always, headless).",
				parameters: [ifNoneMatch],
				responses: {
					"200": { description: "The note and its ETag.", headers: etagHeader },
					"304": { description: "Unchanged since the If-None-Match tag.", headers: etagHeader },
					"404": problemResponse("No active note."),
					...common,
				},
			},
			put: {
				summary: "Replace the active note, guarded like PUT /vault/{path}.",
				parameters: [ifMatch, allowEmpty],
				requestBody: { required: true, content: { "text/markdown": { schema: { type: "string" } } } },
				responses: {
					"204": { description: "Replaced.", headers: etagHeader },
					"202": proposed,
					"404": problemResponse("No active note."),
					...refusals,
					...common,
				},
			},
			post: {
				summary: "Append to the active note, as POST /vault/{path}.",
				parameters: [ifMatch],
				requestBody: { required: true, content: { "text/markdown": { schema: { type: "string" } } } },
				responses: {
					"204": { description: "Appended.", headers: etagHeader },
					"202": proposed,
					"404": problemResponse("No active note."),
					...refusals,
					...common,
				},
			},
			patch: {
				summary: "Patch the active note, guarded like PATCH /vault/{path}.",
				parameters: [ifMatch, patchVersion, ...patchHeaders],
				requestBody: { required: true, content: { "text/markdown": { schema: { type: "string" } } } },
				responses: {
					"200": patchedNote,
					"202": proposed,
					"404": problemResponse("No active note."),
					"412": refusals["412"],
					"428": refusals["428"],
					...common,
				},
			},
			delete: {
				summary: "Trash the active note; needs If-Match (or a current last read).",
				parameters: [ifMatch],
				responses: {
					"204": { description: "Trashed." },
					"404": problemResponse("No active note."),
					"412": refusals["412"],
					"428": refusals["428"],
					...common,
				},
			},
		},
		"/conflicts": {
			get: {
				summary: "List conflict records, newest first.",
				parameters: [
					{
						name: "status",
						in: "query",
						required: false,
						schema: { type: "string", enum: ["open", "resolved", "dismissed"] },
					},
				],
				responses: {
					"200": {
						description: "Conflicts.",
						content: {
							"application/json": {
								schema: {
									type: "object",
									properties: { conflicts: { type: "array", items: { $ref: "#/components/schemas/Conflict" } } },
								},
							},
						},
					},
					...common,
				},
			},
		},
		"/conflicts/{id}": {
			get: {
				summary: "One conflict record; with ?wait=SECONDS (at most 60), waits until its status changes.",
				parameters: [
					{ name: "id", in: "path", required: true, schema: { type: "string" } },
					{
						name: "wait",
						in: "query",
						required: false,
						description: "Long-poll: answer as soon as the status changes, or after this many seconds.",
						schema: { type: "number", minimum: 0, maximum: 60 },
					},
				],
				responses: {
					"200": {
						description: "The record.",
						content: { "application/json": { schema: { $ref: "#/components/schemas/Conflict" } } },
					},
					"404": problemResponse("No such conflict."),
					"429": problemResponse(
						"This key already holds 16 long-polls (too-many-waits); retry after Retry-After, or read without wait.",
					),
					...common,
					"503": problemResponse(
						"The server holds as many long-polls (128) or connections as it allows (server-busy); retry after Retry-After.",
					),
				},
			},
		},
		"/conflicts/{id}/merge": {
			get: {
				summary:
					"The automatic three-way merge of the conflict now (what the agent read, the note " +
					"now, its proposal), with conflict markers; PUT a resolution with If-Match set to " +
					"currentRevision.",
				parameters: [
					{ name: "id", in: "path", required: true, schema: { type: "string" } },
					{
						name: "diff3",
						in: "query",
						required: false,
						description: "Also show the base in each conflict.",
						schema: { type: "string" },
					},
				],
				responses: {
					"200": {
						description: "The merge.",
						headers: etagHeader,
						content: {
							"application/json": {
								schema: {
									type: "object",
									properties: {
										id: { type: "string" },
										path: { type: "string" },
										status: { type: "string" },
										clean: { type: "boolean" },
										conflicts: { type: "integer" },
										baseRetained: { type: "boolean" },
										currentRevision: { type: ["string", "null"] },
										text: { type: "string" },
										mergeRules: {
											type: "array",
											items: { type: "string", enum: ["frontmatter", "tags", "list"] },
											description:
												"Markdown rules that merged parts of text where git would have conflicted (absent when none).",
										},
										detail: { type: "string" },
									},
								},
							},
						},
					},
					"404": problemResponse("No such conflict, or its proposal is no longer kept."),
					...common,
				},
			},
		},
		"/changes/{path}": {
			get: {
				summary:
					"Unified diff from a revision you saw to the note now (or to `to`), one page at a " +
					"time: a page holds whole lines and at most the answer cap (256 KB by default).",
				parameters: [
					pathParam,
					{
						name: "since",
						in: "query",
						required: true,
						description:
							"The revision the diff starts from (a revision, part token or change tag of the note's history).",
						schema: { type: "string" },
					},
					{
						name: "to",
						in: "query",
						required: false,
						description:
							"A retained revision to diff to, instead of the note now (pages of one diff pin it by its change tag).",
						schema: { type: "string" },
					},
					{
						name: "offset",
						in: "query",
						required: false,
						description: "The first line of the diff to send: nextOffset from the previous page.",
						schema: { type: "integer", minimum: 0 },
					},
				],
				responses: {
					"200": {
						description:
							"The diff (or one page of it). `revision` is the note's current revision only when " +
							"this answer is the whole diff to it from a revision (or part token) you had; otherwise " +
							"`changeTag`, and GET the note for its revision.",
						headers: etagHeader,
						content: {
							"application/json": {
								schema: {
									type: "object",
									properties: {
										path: { type: "string" },
										since: { type: "string" },
										to: { type: "string" },
										revision: { type: "string" },
										changeTag: { type: "string" },
										changed: { type: "boolean" },
										offset: { type: "integer" },
										diff: { type: "string" },
										truncated: { type: "boolean" },
										nextOffset: { type: "integer" },
										next: { type: "string", description: "The request for the next page." },
									},
								},
							},
						},
					},
					"404": problemResponse("No such note, or that revision is not retained."),
					...common,
				},
			},
		},
		...historyPaths({ problemResponse, pathParam, etagHeader, common, refusals }),
		...searchPaths({ problemResponse, common }),
		...tagsPaths({ problemResponse, common }),
		...periodicPaths({ problemResponse, etagHeader, common, refusals, proposed }),
		...commandPaths({ problemResponse, pathParam, common }),
		...proposalPaths({ problemResponse, common }),
		"/mcp": {
			post: {
				summary:
					"MCP Streamable HTTP endpoint, also at /mcp/ as Local REST API 5.x clients spell " +
					"it (JSON-RPC messages). Send initialize for a session (Mcp-Session-Id), or send requests " +
					"without one (stateless: writes then need a revision). Tools listed: read_note, edit_note, " +
					"patch_note, write_note, append_note, delete_note, move_note, copy_note, list_notes, " +
					"note_changes, conflict_status, proposal_status, list_tags, search_notes, query_notes, " +
					"periodic_note; inside Obsidian also active_note and open_note, and list_commands " +
					"and run_command for a key allowed to run commands. At /mcp/lra (and /mcp/lra/) the " +
					"Local REST API 5.1's tools are the ones listed instead (vault_list, vault_read, vault_write, " +
					"vault_append, vault_patch, vault_delete, vault_move, vault_copy, vault_get_document_map, " +
					"active_file_get_path, search_query, search_simple, tag_list, command_list, command_execute, " +
					"open_file, and 5.0's periodic_note_get_path), every write guarded; either set can " +
					"be called by name at either path. Resources: notes and conflicts (revision-guard://note/{path}, " +
					"revision-guard://conflict/{id}), with subscriptions, and this document as YAML (openapi-spec, " +
					"obsidian://local-rest-api/openapi.yaml, as in the Local REST API); see the MCP specification.",
				responses: mcpResponses,
			},
			get: {
				summary:
					"MCP Streamable HTTP endpoint: the session's server-to-client event stream (change " +
					"notices, questions to the person); 405 without Mcp-Session-Id; see the MCP specification.",
				responses: mcpResponses,
			},
			delete: {
				summary: "MCP Streamable HTTP endpoint: ends the session named by Mcp-Session-Id; see the MCP specification.",
				responses: mcpResponses,
			},
		},
	},
	components: {
		securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
		schemas: { ...SCHEMAS, Proposal: PROPOSAL_SCHEMA },
	},
};

export async function openApiDocument(): Promise<ApiResponse> {
	return json(200, OPENAPI);
}
