/** The REST route table: one place that says which handler serves which path and method (mounts, such as MCP, come from the host). */
import { exact, prefix, segment, suffixed, type Route } from "../router";
import { conflictMerge, getConflict, listConflicts } from "./conflicts";
import { noteChanges } from "./changes";
import { openApiDocument } from "./openapi";
import { describeProblem, serviceStatus } from "./service";
import { readVault } from "./vault-read";
import { appendNote, deleteNote, putNote } from "./vault-write";
import { copyNote, moveNote } from "./vault-move";
import { ACTIVE_HANDLERS, matchActive } from "./active-note";
import { patchNote } from "./vault-patch";
import { matchNoteTarget, NOTE_TARGET_HANDLERS } from "./note-target";
import { getHistory, listActivity, restoreRevision, revertAgentWrite } from "./history";
import { listTags, matchTags } from "./tags";
import { openApiYaml } from "./openapi-yaml";
import { matchSearch, matchSimpleSearch, querySearch, simpleSearch } from "./search";
import { matchPeriodic, matchPeriodicDay, PERIODIC_HANDLERS } from "./periodic-note";
import { listCommands, matchCommand, openNote, runCommand } from "./commands";
import { getProposal, listProposals } from "./proposals";

/** /history/{path}/{action}: the note path is everything between (a note path always ends in its extension). */
function historyAction(action: string): (raw: string) => string | null {
	const end = `/${action}`;
	return (raw) =>
		raw.startsWith("/history/") && raw.endsWith(end) && raw.length > "/history/".length + end.length
			? raw.slice("/history/".length, raw.length - end.length)
			: null;
}

export const ROUTES: readonly Route[] = [
	{ template: "/", match: exact("/"), handlers: { GET: serviceStatus }, public: true, beforeReady: true },
	{ template: "/openapi.json", match: exact("/openapi.json"), handlers: { GET: openApiDocument }, beforeReady: true },
	// Without a key, as the Local REST API serves it: the document describes the API, never the vault.
	{
		template: "/openapi.yaml",
		match: exact("/openapi.yaml"),
		handlers: { GET: openApiYaml },
		public: true,
		beforeReady: true,
	},
	{ template: "/problems/{name}", match: segment("/problems/"), handlers: { GET: describeProblem }, beforeReady: true },
	// Before /vault/{path}, which would take every URL under /vault/ (see note-target.ts for which URLs are targets).
	{ template: "/vault/{path}/{targetType}/{target}", match: matchNoteTarget, handlers: NOTE_TARGET_HANDLERS },
	{
		template: "/vault/{path}",
		match: prefix("/vault/"),
		handlers: {
			GET: readVault,
			PUT: putNote,
			POST: appendNote,
			DELETE: deleteNote,
			PATCH: patchNote,
			MOVE: moveNote,
			COPY: copyNote,
		},
	},
	{ template: "/active/", match: matchActive, handlers: ACTIVE_HANDLERS },
	// The dated form first: /periodic/{period}/ would take it as a URL target.
	{ template: "/periodic/{period}/{year}/{month}/{day}/", match: matchPeriodicDay, handlers: PERIODIC_HANDLERS },
	{ template: "/periodic/{period}/", match: matchPeriodic, handlers: PERIODIC_HANDLERS },
	{
		template: "/commands/",
		match: (raw) => (raw === "/commands/" || raw === "/commands" ? "" : null),
		handlers: { GET: listCommands },
	},
	{ template: "/commands/{commandId}/", match: matchCommand, handlers: { POST: runCommand } },
	{ template: "/open/{path}", match: prefix("/open/"), handlers: { POST: openNote } },
	{ template: "/conflicts", match: exact("/conflicts"), handlers: { GET: listConflicts } },
	{ template: "/conflicts/{id}", match: segment("/conflicts/"), handlers: { GET: getConflict } },
	{ template: "/conflicts/{id}/merge", match: suffixed("/conflicts/", "/merge"), handlers: { GET: conflictMerge } },
	{ template: "/proposals", match: exact("/proposals"), handlers: { GET: listProposals } },
	{ template: "/proposals/{id}", match: segment("/proposals/"), handlers: { GET: getProposal } },
	{ template: "/changes/{path}", match: prefix("/changes/"), handlers: { GET: noteChanges } },
	{ template: "/history/{path}/restore", match: historyAction("restore"), handlers: { POST: restoreRevision } },
	{ template: "/history/{path}/revert", match: historyAction("revert"), handlers: { POST: revertAgentWrite } },
	{ template: "/history/{path}", match: prefix("/history/"), handlers: { GET: getHistory } },
	{ template: "/activity", match: exact("/activity"), handlers: { GET: listActivity } },
	{ template: "/tags/", match: matchTags, handlers: { GET: listTags } },
	{ template: "/search/", match: matchSearch, handlers: { POST: querySearch } },
	{ template: "/search/simple/", match: matchSimpleSearch, handlers: { POST: simpleSearch } },
];
