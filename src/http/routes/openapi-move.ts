/**
 * The OpenAPI entries of MOVE and COPY on /vault/{path} (see vault-move.ts). They are not among OpenAPI 3.1's fixed
 * methods, so they are described under `additionalOperations` (OpenAPI 3.2's field, keyed by the method as sent),
 * as the Local REST API's own document does.
 */
import type { JsonValue } from "../response";

interface Shared {
	problemResponse: (description: string) => JsonValue;
	pathParam: JsonValue;
	etagHeader: JsonValue;
	common: Record<string, JsonValue>;
}

const destination = {
	name: "Destination",
	in: "header",
	required: true,
	description:
		"The new path, relative to the vault (no leading /; `.` and `..` allowed while they " +
		"stay inside it; percent-encode non-ASCII characters). Ending in `/` keeps the note's " +
		"name in that folder. Held to the same rules as every path: no hidden or config folders, " +
		"a note extension.",
	schema: { type: "string" },
};
const allowOverwrite = {
	name: "Allow-Overwrite",
	in: "header",
	required: false,
	description:
		"`true`: a note at the destination may be replaced, but only with its own revision " +
		"(Destination-If-Match, or this key's whole read of it); it goes to the trash, as " +
		"this key's delete, undone with the move. Otherwise (the default) a taken destination " +
		"is 409. A folder there is never replaced.",
	schema: { type: "string", enum: ["true", "false"], default: "false" },
};
const destinationIfMatch = {
	name: "Destination-If-Match",
	in: "header",
	required: false,
	description:
		"With Allow-Overwrite: true, the ETag of the note at the destination, as you read " +
		"it (quoted or bare). Without it, this key's last whole read of that note is used; none: 428.",
	schema: { type: "string" },
};

export function moveOperations({ problemResponse, pathParam, etagHeader, common }: Shared): Record<string, JsonValue> {
	const moved = (what: string) => ({
		description:
			`${what} \`Content-Location\` names the new path (vault-relative, percent-encoded), ` +
			`as the Local REST API sends it. The ETag is the note's revision only when you had ` +
			`it whole and it arrived unchanged (or, for a copy, when you had the source whole); ` +
			`otherwise its weak change tag: GET the note to write with.`,
		headers: { ...(etagHeader as Record<string, JsonValue>), "Content-Location": { schema: { type: "string" } } },
	});
	const refusals = {
		"400": problemResponse(
			"destination-required: no Destination header; invalid-destination: absolute, `..` " +
				"past the vault's root, not valid percent-encoding, or a path the vault does not serve " +
				"as a note; malformed-precondition: an If-Match or Destination-If-Match that is not an entity tag.",
		),
		"403": problemResponse(
			"backup-read-only: agents may read .bak notes but not move them, replace them or " +
				"create one; scope-forbidden (40300): this key may not change the note or its destination " +
				"(read-only to it, outside its read list, or one it may only propose to: a proposal " +
				"carries content, never a move), or, inside Obsidian, a note it may not change links to " +
				"the note, whose links the move would rewrite (`scope`: links-outside-write).",
		),
		"404": problemResponse("note-not-found: no note at the path."),
		"405": problemResponse(
			"method-not-allowed: the path names a folder; folders are not moved or copied (move their notes one by one).",
		),
		"409": problemResponse(
			"destination-exists: a note (or a folder) is at the destination and Allow-Overwrite " +
				"was not sent (or it is a folder). Also note-not-utf8 and name-clash, as for every write.",
		),
		"412": problemResponse(
			"stale-revision or read-expired: the note (`side: source`) or the note at the destination " +
				"(`side: destination`) is not the revision sent or read. Nothing was moved or copied, " +
				"and nothing was kept: these requests carry no text of yours. The note's revision " +
				"now comes only as `changeTag`.",
		),
		"428": problemResponse(
			"precondition-required: a move needs the note's whole revision (If-Match, or this " +
				"key's whole read of it; a part token or a change tag is not enough), and replacing " +
				"a destination needs its own (Destination-If-Match); `side` says which.",
		),
	};
	return {
		MOVE: {
			summary:
				"Move or rename a note, guarded. It needs the note's whole revision: If-Match, or " +
				"this key's whole read of it (a move takes all of it away from its path). Inside Obsidian " +
				"it moves through Obsidian's file manager, so links to it are updated as the person's " +
				"settings say; the notes rewritten so are this key's writes, in history and activity, " +
				"undone with the move. Headless, only the note moves. Folders are not moved. A refused " +
				"move keeps nothing (it carries no text).",
			parameters: [
				pathParam,
				{
					name: "If-Match",
					in: "header",
					required: false,
					description:
						"The note's ETag from your last whole read. Without it, this key's last whole read " +
						"of the note is used; none: 428.",
					schema: { type: "string" },
				},
				destination,
				allowOverwrite,
				destinationIfMatch,
			],
			responses: {
				"204": moved("Moved (or the Destination is the note's own path: nothing to do)."),
				...refusals,
				...common,
			},
		},
		COPY: {
			summary:
				"Copy a note to a new path: the destination is created with the note's text as it " +
				"is now. The note's revision is not needed (nothing is overwritten); when sent as " +
				"If-Match, the copy is made only of exactly that revision. Replacing a note at the " +
				"destination needs Allow-Overwrite and that note's revision, as for MOVE. A refused " +
				"copy keeps nothing (its text stays in the note).",
			parameters: [
				pathParam,
				{
					name: "If-Match",
					in: "header",
					required: false,
					description: "Optional: copy only if the note is still this revision (412 otherwise).",
					schema: { type: "string" },
				},
				destination,
				allowOverwrite,
				destinationIfMatch,
			],
			responses: { "204": moved("Copied."), ...refusals, ...common },
		},
	};
}
