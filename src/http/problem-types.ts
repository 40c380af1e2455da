/**
 * The catalogue of problem types: every error the API can return, with its status, title and general next step
 * (served at GET /problems/{name}). problems.ts builds the answers from it.
 */
import type { RefusalCode } from "../core/refusal-codes";

export interface ProblemType {
	status: number;
	title: string;
	/** The general next step, served at /problems/{name}. */
	howToFix: string;
}

export const PROBLEM_TYPES = {
	"stale-revision": {
		status: 412,
		title: "The note changed since you read it",
		howToFix:
			"Read the note again (GET), re-apply your change to the current content, and PUT " +
			"it with the new ETag in If-Match. Your refused content is kept in the .bak note named by backupPath.",
	},
	"note-exists": {
		status: 412,
		title: "The note already exists",
		howToFix: "Read the existing note (GET) and update it with its ETag in If-Match, or choose another path.",
	},
	"read-expired": {
		status: 412,
		title: "Your read is too old",
		howToFix: "Read the note again (GET) and send the fresh ETag; the read validity window refuses older tokens.",
	},
	"precondition-required": {
		status: 428,
		title: "A revision token is required",
		howToFix:
			"Read the note first (GET), then send its ETag in an If-Match header with your update. " +
			'A change tag (W/"tag.…", from listings, HEAD or a 428) never passes, and a part token ' +
			"(part.…, from a document map or a section) passes only a PATCH: a token comes only " +
			"with the content it names.",
	},
	"content-loss": {
		status: 409,
		title: "The write would erase most of the note",
		howToFix: "Read the note (GET) and send its ETag in If-Match to confirm you mean to replace it.",
	},
	"empty-body": {
		status: 409,
		title: "An empty body would empty the note",
		howToFix:
			"Check that your body was read (an empty body is often a missing file). To empty " +
			"the note on purpose, send the header Allow-Empty: true (MCP: allow_empty).",
	},
	"scope-forbidden": {
		status: 403,
		title: "This key may not change that",
		howToFix:
			"The person limits what each key may see, change and only propose; the detail names " +
			"the rule that refused this. Nothing was written. Only the person can widen a key's " +
			"lists, in settings.",
	},
	"backup-read-only": {
		status: 403,
		title: "Backups are read-only to agents",
		howToFix:
			"Read the .bak note if you need its content, and write to the note it belongs to; " +
			"only the person changes or deletes backups.",
	},
	"note-in-use": {
		status: 412,
		title: "The note is being edited where it cannot be checked",
		howToFix:
			"The person is editing the note in a canvas card or a popover. Your content was kept " +
			"as a .bak note; retry later with a fresh GET's ETag.",
	},
	"note-not-ready": {
		status: 409,
		title: "Obsidian has not caught up with the disk",
		howToFix:
			"Another program just created, removed or renamed a file with this name and Obsidian " +
			"has not taken it in yet. Retry in a moment (GET it first).",
	},
	"note-not-utf8": {
		status: 409,
		title: "The note is not UTF-8 text",
		howToFix:
			"The note's bytes are not valid UTF-8, so it is not served or changed as text (that " +
			"would alter its bytes). Fix its encoding in an editor; nothing was read or written.",
	},
	"name-clash": {
		status: 409,
		title: "A note with a look-alike name exists",
		howToFix:
			"Another note's name differs from this one only in how its characters are encoded " +
			"(Unicode normalization). Use that note's exact name, as the folder listing shows it.",
	},
	"malformed-precondition": {
		status: 400,
		title: "Malformed conditional header",
		howToFix:
			'Send the ETag exactly as received, for example If-Match: "abc…". A token without ' +
			"its quotes, as JSON fields carry it, works too.",
	},
	"invalid-frontmatter": {
		status: 400,
		title: "The note's frontmatter is not valid YAML",
		howToFix:
			"Fix the frontmatter: GET the note and PUT it whole with If-Match, its YAML corrected. " +
			"Until then its frontmatter can be neither read nor patched; the detail says what " +
			"is wrong with it.",
	},
	"text-body-required": {
		status: 400,
		title: "The body must be text",
		howToFix:
			"Send the text with a text/* Content-Type (text/markdown), or none; a JSON or binary " +
			"body is never appended to a note.",
	},
	"header-target-needs-version": {
		status: 400,
		title: "Target-Type and Target headers need Markdown-Patch-Version: 1",
		howToFix:
			"Add Markdown-Patch-Version: 1, or name the part in the URL instead. The header format " +
			"(Target: A::B) is the deprecated one; the URL forms are /vault/{note}/heading/{A}/{B}, " +
			"/frontmatter/{key} and /block/{id}.",
	},
	"patch-version-required": {
		status: 400,
		title: "A header-targeted PATCH must name its format",
		howToFix:
			"Add Markdown-Patch-Version: 1 (Target: A::B) or 2 (a heading Target as percent-encoded " +
			"JSON). The two formats read the same headers differently, so neither is guessed.",
	},
	"folder-not-a-note": {
		status: 405,
		title: "That is a folder, not a note",
		howToFix:
			"PUT, POST, PATCH and DELETE act on one note: name its path, ending in its extension, " +
			"without a trailing slash. GET lists a folder.",
	},
	"edit-not-applied": {
		status: 409,
		title: "The edit does not match the note",
		howToFix:
			"Read the note again and copy the old text exactly from it (whitespace and line breaks " +
			"included), with enough around it to occur once.",
	},
	"invalid-path": {
		status: 400,
		title: "The path is not allowed",
		howToFix: "Use a vault-relative path to a note, with / between folders, percent-encoded once.",
	},
	"note-not-found": {
		status: 404,
		title: "No such note",
		howToFix: "Check the path; list a folder with GET /vault/{folder}/.",
	},
	"base-not-retained": {
		status: 404,
		title: "That revision is no longer retained",
		howToFix: "Read the note again (GET) to get its current content and ETag.",
	},
	"conflict-not-found": { status: 404, title: "No such conflict", howToFix: "List conflicts with GET /conflicts." },
	"proposal-not-found": {
		status: 404,
		title: "No such proposal",
		howToFix:
			"List this key's proposals with GET /proposals; a key sees only the proposals it " +
			"made, by the proposalId its write was answered with.",
	},
	"route-not-found": {
		status: 404,
		title: "No such route",
		howToFix: "See GET /openapi.json for the routes this server offers.",
	},
	"method-not-allowed": {
		status: 405,
		title: "Method not allowed",
		howToFix: "Use one of the methods in the Allow header.",
	},
	unauthorized: {
		status: 401,
		title: "Missing or wrong API key",
		howToFix:
			"Send Authorization: Bearer <key> with a key this host issued; the detail says where this host keeps its keys.",
	},
	"too-many-waits": {
		status: 429,
		title: "Too many long-polls from this key",
		howToFix:
			"Wait for the time in Retry-After, or read the conflict without ?wait; each key may " +
			"hold only a few long-polls at once.",
	},
	"server-busy": {
		status: 503,
		title: "The server is at its limit",
		howToFix:
			"Retry after the time in Retry-After; the server holds a bounded number of connections " +
			"and long-polls so that it stays responsive.",
	},
	"starting-up": {
		status: 503,
		title: "The host is still starting",
		howToFix:
			"Retry after the time in Retry-After. The host is checking which notes changed while " +
			"it was not running; until it knows every note's revision it answers nothing about " +
			"notes, so no token it hands out can be wrong.",
	},
	"too-many-attempts": {
		status: 429,
		title: "Too many failed authentication attempts",
		howToFix: "Wait for the time in Retry-After, then retry with a valid key.",
	},
	"forbidden-origin": {
		status: 403,
		title: "Requests from web pages are not allowed",
		howToFix: "Call the API from a local program, not a browser page; an allowed origin must be added in settings.",
	},
	"misdirected-request": {
		status: 421,
		title: "Wrong Host header",
		howToFix: "Connect to 127.0.0.1 or localhost on the configured port and send that as the Host header.",
	},
	"payload-too-large": {
		status: 413,
		title: "The body is too large",
		howToFix:
			"Send a smaller body, or ask the person to raise the body size limit (Largest request " +
			"body in the plugin's settings, maxBodyMB in the headless host's settings.json).",
	},
	"invalid-utf8": {
		status: 400,
		title: "The body is not valid UTF-8",
		howToFix: "Send the note as UTF-8 text; nothing was written.",
	},
	"bad-request": { status: 400, title: "Bad request", howToFix: "Check the request against GET /openapi.json." },
	"invalid-patch": {
		status: 400,
		title: "The PATCH cannot be applied",
		howToFix:
			"Fix what the detail names and send the PATCH again; nothing was written. A header " +
			"PATCH needs Operation (append, prepend or replace), Target-Type (heading, block or " +
			"frontmatter) and Target (percent-encoded; nested headings joined by Target-Delimiter, " +
			"default ::); or send a JSON instruction (see /problems/invalid-patch-instruction).",
	},
	"patch-target-not-supported": {
		status: 400,
		title: "That PATCH target type is not supported",
		howToFix:
			"Patch a heading, a block (^id) or a frontmatter key. For anything else, GET the " +
			"note and PUT the whole note with If-Match.",
	},
	"invalid-patch-instruction": {
		status: 400,
		title: "The PATCH instruction cannot be read",
		howToFix:
			"Fix the field the detail names and send the PATCH again; nothing was written. The " +
			'instruction is one JSON object: {"targetType": "heading" | "block" | "frontmatter", ' +
			'"target": ["Heading", "Subheading"] | "block-id" | "key", "operation": "replace" ' +
			'| "prepend" | "append" | "delete", "content": "markdown" or "value": <JSON>, "ifMatch": "<revision>"}.',
	},
	"unsupported-header": {
		status: 400,
		title: "A header this API does not carry out",
		howToFix:
			"The header named in `header` would change what the request does, and this API does " +
			"not do that, so it refused the request rather than ignore the header. The detail " +
			"says what to send instead; nothing was read or written.",
	},
	"invalid-patch-version": {
		status: 400,
		title: "Unknown Markdown-Patch-Version",
		howToFix:
			"Send Markdown-Patch-Version: 2 (the default) or 1, or leave it out. 2 speaks JSON " +
			"instructions, URL targets and the nested document map; 1 the header format and the " +
			"flat document map.",
	},
	"conflicting-target": {
		status: 422,
		title: "Two targets in one request",
		howToFix:
			"Name the part of the note either in the URL (/vault/{note}/heading/...) or with " +
			"Target-Type and Target headers, not both.",
	},
	"content-preexists": {
		status: 409,
		title: "The text is already in the target",
		howToFix:
			"You sent Reject-If-Content-Preexists (rejectIfContentPreexists), and the text you " +
			"meant to add is already in the target, so it was not added again. Nothing was written; " +
			"GET the note if you need to check it.",
	},
	"target-exists": {
		status: 409,
		title: "That name is already taken in the note",
		howToFix:
			"A frontmatter key (or block id) you meant to rename to or insert already exists, " +
			"and a patch never overwrites one. Choose another name, or set the existing key with " +
			"scope content. Nothing was written.",
	},
	"target-not-found": {
		status: 404,
		title: "The note has no such part",
		howToFix:
			"GET the note's document map (Accept: application/vnd.olrapi.document-map+json) and " +
			"name a part it lists. Nested headings go outermost first; Create-Target-If-Missing: " +
			"true adds a missing heading or key.",
	},
	"no-active-note": {
		status: 404,
		title: "No note is active",
		howToFix: "Open a note in Obsidian (a headless host never has one), or use /vault/{path} with the note's path.",
	},
	"revision-not-found": {
		status: 404,
		title: "No such revision in the note's history",
		howToFix:
			"List the note's revisions with GET /history/{path} and use a revision from it (agent " +
			"writes are listed by GET /activity).",
	},
	"revision-not-retained": {
		status: 410,
		title: "That revision's text is no longer kept",
		howToFix:
			"The history still lists it, but its text was evicted from the base store (raise " +
			"the base store size in settings to keep more). Pick a revision marked restorable " +
			"in GET /history/{path}.",
	},
	"history-stale": {
		status: 412,
		title: "The note changed since you looked",
		howToFix:
			"GET /vault/{path} to see what the note holds now, check that the undo still makes " +
			"sense, and send its ETag in If-Match. Nothing was written.",
	},
	"nothing-to-revert": {
		status: 409,
		title: "That agent write replaced nothing",
		howToFix:
			"The agent created the note and it changed since, so Revert does not delete it. Delete " +
			"the note (DELETE /vault/{path} with If-Match) if you do not want it.",
	},
	"revert-note-exists": {
		status: 409,
		title: "A note was created where the deleted one was",
		howToFix:
			"Undoing the delete would overwrite a note created since, so nothing was written. " +
			"Compare the two with GET /history/{path}; to put the deleted text back anyway, POST " +
			"/history/{path}/restore?revision=<deleted> with If-Match: the ETag of GET /vault/{path}.",
	},
	"revert-needs-merge": {
		status: 409,
		title: "The revert needs a person to merge it",
		howToFix:
			"The note changed after the agent's write and taking the write out conflicts with " +
			'the later changes. In Obsidian, open the note\'s history (command "Show note history") ' +
			"to merge it; on any host, edit the note by hand using mergePreview, then PUT it with " +
			"If-Match. Nothing was written.",
	},
	"invalid-search": {
		status: 400,
		title: "The search request is incomplete",
		howToFix:
			"Send POST /search/simple/?query=<words> with one query parameter (contextLength " +
			"optional). To page a long answer, repeat the same search with ?cursor= set to the " +
			"Search-Next-Cursor header it answered with.",
	},
	"search-content-type": {
		status: 400,
		title: "Unknown search query type",
		howToFix:
			"Send Content-Type: application/vnd.olrapi.jsonlogic+json with a JsonLogic query " +
			"as the body. In Obsidian with Dataview, application/vnd.olrapi.dataview.dql+txt takes " +
			"a Dataview TABLE query.",
	},
	"invalid-search-query": {
		status: 400,
		title: "The search query cannot be evaluated",
		howToFix:
			"Check it against https://jsonlogic.com/operations.html (plus glob and regexp) or " +
			"Dataview's TABLE syntax: the detail names what was wrong. Regexp patterns may not " +
			"use back-references or lookaround. Nothing was searched.",
	},
	"search-too-costly": {
		status: 400,
		title: "The search query needs too much work",
		howToFix:
			"Narrow the query (match on path, tags or frontmatter before content) or simplify " +
			"its patterns. Every search has a bounded amount of work, so that it cannot hold up the vault.",
	},
	"dataview-unavailable": {
		status: 501,
		title: "Dataview is not available here",
		howToFix:
			"Dataview DQL runs only inside Obsidian with the Dataview plugin enabled. Enable " +
			"Dataview, or send a JsonLogic query (Content-Type: application/vnd.olrapi.jsonlogic+json).",
	},
	"destination-required": {
		status: 400,
		title: "MOVE and COPY need a Destination",
		howToFix:
			"Send the Destination header: the note's new path relative to the vault (percent-encoded; " +
			"ending in / to keep the note's name), e.g. Destination: Archive/Plan.md. Nothing " +
			"was moved or copied.",
	},
	"invalid-destination": {
		status: 400,
		title: "The Destination is not a path this vault serves",
		howToFix:
			"Name a note path relative to the vault: no leading /, no .. past the vault's root, " +
			"not in a hidden or config folder, ending in a note extension (.md), percent-encoded " +
			"once. The detail says which rule it broke; nothing was moved or copied.",
	},
	"destination-exists": {
		status: 409,
		title: "Something is already at the destination",
		howToFix:
			"Choose another destination, or GET the note there and resend with Allow-Overwrite: " +
			"true and Destination-If-Match: its ETag. A note there is never replaced unasked (MCP: " +
			"overwrite and destination_revision), and a folder never.",
	},
	"not-renderable": {
		status: 406,
		title: "The note cannot be sent as HTML",
		howToFix:
			"GET the note without Accept: text/html to have its markdown. The detail says why " +
			"(this host has no renderer, or the note or its HTML is too long).",
	},
	"unknown-period": {
		status: 404,
		title: "No such period",
		howToFix:
			"Name one of daily, weekly, monthly, quarterly or yearly: /periodic/daily/, or /periodic/daily/{year}/{month}/{day}/ " +
			"for another day.",
	},
	"periodic-note-missing": {
		status: 404,
		title: "That periodic note does not exist yet",
		howToFix:
			"POST (append) or PATCH to the same URL creates it from its template first; PUT creates " +
			"it with your body. Nothing is created by a GET.",
	},
	"invalid-periodic-date": {
		status: 400,
		title: "No such day",
		howToFix:
			"Send /periodic/{period}/{year}/{month}/{day}/ with a real calendar day: a four-digit " +
			"year, a month from 1 to 12 and a day of that month.",
	},
	"periodic-format-unsupported": {
		status: 501,
		title: "This host cannot format the periodic note's date format",
		howToFix:
			"The headless host formats moment's date tokens but not localized formats (LL, L…), " +
			"eras, time zones or fractions of a second. Change periodicNotes.<period>.format in " +
			".revision-guard/settings.json (for example YYYY-MM-DD), or use /vault/{path} with " +
			"the note's path.",
	},
	"obsidian-only": {
		status: 501,
		title: "Only Obsidian can do this",
		howToFix:
			"This host serves a plain folder: it has no Obsidian commands, panes or active editor. " +
			"Read and write notes with /vault/{path}; run the plugin inside Obsidian for commands " +
			"and for opening notes.",
	},
	"commands-not-allowed": {
		status: 403,
		title: "This key may not run Obsidian commands",
		howToFix:
			"A command can change notes with no revision at all, so the person allows it per " +
			"key: in Obsidian, Settings → Revision Guard → Obsidian commands. Until then, change " +
			"notes through /vault/{path}, which is guarded.",
	},
	"command-not-found": {
		status: 404,
		title: "No such command",
		howToFix: "List the commands with GET /commands/ and use an id from it.",
	},
	"command-not-run": {
		status: 409,
		title: "Obsidian did not run the command",
		howToFix:
			"Obsidian can run this command only in some situations (many need a note open in " +
			"the active editor). Open the right note first (POST /open/{path}), then run it again.",
	},
	"not-durable": {
		status: 500,
		title: "Written, but the disk did not make it durable",
		howToFix:
			"The change is in place, but the disk reported an error (EIO, ENOSPC...) while making it durable, so a " +
			"crash or power loss could still undo it. Read the note back (GET) to see what it holds, and ask the " +
			"person to check the disk (free space, errors) before relying on it; write it again once the disk is sound. " +
			"After a DELETE the note is in the trash (at `trashedTo`): if a crash brings it back, DELETE it again then.",
	},
	"internal-error": {
		status: 500,
		title: "Internal error",
		howToFix: "Nothing was written. Retry; if it keeps failing, report it with the time of the request.",
	},
} satisfies Record<string, ProblemType>;

export type ProblemName = keyof typeof PROBLEM_TYPES;

/** Every refusal code is a problem type, served at /problems/{code} (a missing one fails to compile here). */
export function problemOf(code: RefusalCode): ProblemName {
	return code;
}
