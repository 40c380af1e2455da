/** The OpenAPI entries of the history and undo routes (see history.ts); openapi.ts hands in its shared pieces. */
import type { JsonValue } from "../response";

interface Shared {
	problemResponse: (description: string) => JsonValue;
	pathParam: JsonValue;
	etagHeader: JsonValue;
	common: Record<string, JsonValue>;
	refusals: Record<string, JsonValue>;
}

const revisionQuery = (description: string, required: boolean) => ({
	name: "revision",
	in: "query",
	required,
	description: `${description} Its change tag, as history lists it, or the revision itself.`,
	schema: { type: "string" },
});
const ifMatchRequired = {
	name: "If-Match",
	in: "header",
	required: true,
	description:
		"The note's revision now (the ETag of GET /vault/{path}), as you saw it: an undo " +
		"never overwrites a newer note blindly. Stale: 412 history-stale, nothing written.",
	schema: { type: "string" },
};
const revisionView = {
	type: "object",
	properties: {
		revision: {
			type: "string",
			description:
				"History shows no content, so this is the revision's change tag; with ?revision=, " +
				"whose text the answer shows, the revision itself.",
		},
		time: { type: "string", format: "date-time" },
		by: { type: "string", description: '"you", an agent key\'s name, or "another program".' },
		source: { type: "string", enum: ["agent", "user", "external"] },
		size: { type: "integer" },
		restorable: {
			type: "boolean",
			description: "Its text is still kept (false: listed, but it can no longer be shown or restored).",
		},
		current: { type: "boolean" },
		deleted: {
			type: "boolean",
			description: "The note was deleted here through the guarded writer; revision is the one the delete removed.",
		},
		previous: {
			type: ["string", "null"],
			description: "The change tag of the revision before it (what a write replaced).",
		},
		movedFrom: {
			type: ["string", "null"],
			description:
				"A move through the guarded writer: the path the note came from (Revert moves it back). Null otherwise.",
		},
	},
};

export function historyPaths({
	problemResponse,
	pathParam,
	etagHeader,
	common,
	refusals,
}: Shared): Record<string, JsonValue> {
	const undoResponses = {
		"204": {
			description:
				"Written through the guarded writer (credited to your key; the person's undo in Obsidian " +
				"is credited to them). The ETag is the change tag of the note's new revision (you " +
				"were not shown its text: GET the note to write again), itself undoable.",
			headers: etagHeader,
		},
		"404": problemResponse(
			"revision-not-found: no such revision or agent write in the note's history; note-not-found.",
		),
		"410": problemResponse("revision-not-retained: the history lists it, but its text is no longer kept."),
		...common,
		...refusals,
		"412": problemResponse(
			"history-stale: the note is not the revision in If-Match; nothing was written. (A " +
				"write raced in between: stale-revision, with a .bak.)",
		),
		"428": problemResponse("If-Match is required."),
	};
	return {
		"/history/{path}": {
			get: {
				summary:
					"A note's revisions, newest first: who (an agent key, you, another program), when, " +
					"size, and whether the text is still kept. With ?revision=: that revision's text (null " +
					"when no longer kept) and a page of the diff from the revision before it.",
				parameters: [
					pathParam,
					revisionQuery("Show this revision (its text and the diff to it).", false),
					{
						name: "offset",
						in: "query",
						required: false,
						description:
							"Without revision: the first revision of the page. With revision: the first diff line (nextOffset).",
						schema: { type: "integer", minimum: 0 },
					},
					{
						name: "limit",
						in: "query",
						required: false,
						description: "Revisions per page (at most 50; default 20).",
						schema: { type: "integer", minimum: 1, maximum: 50 },
					},
				],
				responses: {
					"200": {
						description:
							"A page of revisions ({path, currentRevision, total, offset, revisions, next}), or " +
							"one revision ({...revision, content, diff, nextOffset}).",
						headers: etagHeader,
						content: {
							"application/json": {
								schema: {
									oneOf: [
										{
											type: "object",
											properties: {
												path: { type: "string" },
												currentRevision: { type: ["string", "null"] },
												total: { type: "integer" },
												offset: { type: "integer" },
												revisions: { type: "array", items: revisionView },
												next: { type: "string" },
											},
										},
										{
											...revisionView,
											properties: {
												...revisionView.properties,
												content: { type: ["string", "null"] },
												diff: { type: ["string", "null"] },
												nextOffset: { type: "integer" },
											},
										},
									],
								},
							},
						},
					},
					"404": problemResponse("No such note and no history of one; or revision-not-found."),
					...common,
				},
			},
		},
		"/history/{path}/restore": {
			post: {
				summary:
					"Writes an earlier revision back, guarded like any write. For a note that is gone, " +
					"send If-None-Match: * instead of If-Match.",
				parameters: [
					pathParam,
					revisionQuery("The revision to restore (from GET /history/{path}).", true),
					{
						...ifMatchRequired,
						required: false,
						description: `${ifMatchRequired.description} Required unless If-None-Match: * restores a deleted note.`,
					},
					{ name: "If-None-Match", in: "header", required: false, schema: { type: "string", enum: ["*"] } },
				],
				responses: undoResponses,
			},
		},
		"/history/{path}/revert": {
			post: {
				summary:
					"Undoes an agent's write or delete. Unchanged since: what it replaced is written " +
					"back. Changed since: a three-way revert (base = the agent's result, mine = the note " +
					"now, theirs = what it replaced); clean: written; not clean: 409 revert-needs-merge " +
					"with mergePreview, nothing written. A delete: the note is created again with the " +
					"text it removed (If-None-Match: *; 201). A write that created the note: the note " +
					"is moved to the trash if it is still exactly what the agent wrote (204). A move (called " +
					"on the note where the move left it): the note is moved back, guarded (never over " +
					"a note at its old path), the notes whose links the move rewrote get their text from " +
					"before back while they still hold what the rewrite left, and a note the move replaced " +
					"is created again (200, with `links` and `replacedNote`).",
				parameters: [
					pathParam,
					revisionQuery(
						"The revision the agent's write produced, or the one its delete removed (GET /activity); " +
							"default: the note's latest agent write or delete.",
						false,
					),
					{
						...ifMatchRequired,
						required: false,
						description: `${ifMatchRequired.description} Required unless If-None-Match: * undoes a delete.`,
					},
					{
						name: "If-None-Match",
						in: "header",
						required: false,
						description: "* to undo a delete: the note is created again only while none is at its path.",
						schema: { type: "string", enum: ["*"] },
					},
				],
				responses: {
					...undoResponses,
					"200": {
						description:
							"An agent's move was undone: {path (where the note is again), movedFrom, changeTag, " +
							"links: [{path, result: restored | already | changed | not-retained | missing}], replacedNote: " +
							"restored | not-retained | exists | null, detail}; Content-Location names the note's path.",
						headers: etagHeader,
					},
					"201": {
						description: "An agent's delete was undone: the note exists again with the text the delete removed.",
						headers: etagHeader,
					},
					"409": problemResponse(
						"revert-needs-merge (with mergePreview and currentRevision); nothing-to-revert: the " +
							"agent created the note and it changed since; revert-note-exists: the agent deleted " +
							"the note and one was created at its path since (currentRevision, deletedRevision), " +
							"nothing written; destination-exists: the agent moved the note and its old path is " +
							"taken now, nothing moved back.",
					),
					"428": problemResponse("If-Match (or If-None-Match: * to undo a delete) is required."),
				},
			},
		},
		"/activity": {
			get: {
				summary:
					"Recent agent writes and deletes across the vault, newest first, each with the note, " +
					"the key, the revision it produced (for a delete: the one it removed) and the one " +
					"it replaced, and whether Revert can still work.",
				parameters: [
					{
						name: "agent",
						in: "query",
						required: false,
						description: "Only this key's writes.",
						schema: { type: "string" },
					},
					{
						name: "limit",
						in: "query",
						required: false,
						description: "At most 200; default 50.",
						schema: { type: "integer", minimum: 1, maximum: 200 },
					},
				],
				responses: {
					"200": {
						description:
							"{agent, writes: [{path, agent, time, revision, replaced, deleted, movedFrom, current, " +
							"revertible, history}]}. A move is listed at the note's new path with movedFrom; the " +
							"notes whose links it rewrote are listed as the same key's writes.",
					},
					...common,
				},
			},
		},
	};
}
