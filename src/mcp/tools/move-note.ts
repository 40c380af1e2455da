/** move_note: move or rename a note, guarded like REST's MOVE (the note's revision; a destination replaced only on request, with its own). */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { revisionField } from "../../core/revision-tokens";
import { MOVES } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, toolError, guarded, heldAt, ifMatchOf, ok } from "./context";
import { checkDestination, relocationRefusalResult } from "./relocation";
import { notFoundSentence } from "../../core/refusal-wording";

export const MOVE_NOTE_DESCRIPTION =
	"Move or rename a note. Needs the revision from your last read_note of it, as `revision` " +
	"(with an MCP session, the session's last read of " +
	("the whole note is used when you omit it; a client without a session, as every MCP " +
		"2026-07-28 client is, must pass it): a move takes the whole note away from its path. " +
		"`destination` is the new path relative to the ") +
	('vault; ending it in "/" keeps the note\'s name in that folder. Inside Obsidian, ' +
		"links to the note in other notes are updated (as the ") +
	("person's settings say); those changes are yours, listed in `rewritten`, and undone " +
		"with the move. A note already at the destination is ") +
	("never replaced unless you pass overwrite: true and its revision as destination_revision. " +
		"If the note changed since your read, nothing is moved.");

export function registerMoveNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"move_note",
		{
			title: "Move or rename a note",
			description: MOVE_NOTE_DESCRIPTION,
			inputSchema: {
				path: z.string().describe('The note to move, e.g. "Inbox/Draft.md".'),
				destination: z
					.string()
					.describe('Its new path, e.g. "Projects/Plan.md", or a folder ending in "/" to keep its name.'),
				revision: z
					.string()
					.min(1)
					.optional()
					.describe(
						"The revision from your last read_note of the note (with a session, its last read is used when omitted).",
					),
				overwrite: z
					.boolean()
					.optional()
					.describe(
						"true: replace a note at the destination (needs destination_revision, or this session's " +
							"read of it). It goes to the trash, undoably.",
					),
				destination_revision: z
					.string()
					.min(1)
					.optional()
					.describe("With overwrite: the revision from your last read_note of the note at the destination."),
			},
			outputSchema: {
				path: z.string().describe("Where the note is now."),
				from: z.string(),
				revision: z
					.string()
					.optional()
					.describe("The note's revision, when you had it whole and it arrived unchanged: pass it to your next write."),
				changeTag: z
					.string()
					.optional()
					.describe(
						"Instead of revision, when the move changed the note (Obsidian rewrote its own links) " +
							"or you had not read it whole: call read_note before writing it.",
					),
				rewritten: z
					.array(z.string())
					.describe(
						"Notes whose links to it Obsidian rewrote (your writes; undone with the move). Always empty headless.",
					),
			},
			annotations: MOVES,
		},
		({ path, destination, revision, overwrite, destination_revision: destinationRevision }, extra) =>
			guarded(context, async () => {
				const from = checkPath(context, path, "note");
				const to = checkDestination(context, destination, from);
				const held = heldAt(context, extra.requestId, from);
				const outcome = await context.notes.move({
					from,
					to,
					ifMatch: ifMatchOf(revision),
					overwrite: overwrite === true,
					destinationIfMatch: ifMatchOf(destinationRevision),
					actor: context.actor(),
					...(held.heldRevision !== undefined ? { heldRevision: held.heldRevision } : {}),
				});
				switch (outcome.kind) {
					case "moved":
						return ok({
							path: outcome.to,
							from,
							...revisionField("revision", outcome.revision, outcome.sight),
							rewritten: outcome.rewritten.map((note) => note.path),
						});
					case "same-path":
						return ok({
							path: outcome.path,
							from,
							...revisionField("revision", outcome.revision, "none"),
							rewritten: [],
						});
					case "missing":
						return toolError(
							`${notFoundSentence(JSON.stringify(from), "moved")} Call list_notes to see what is there.`,
							{ error: "note-not-found", path: from },
						);
					case "refused":
						return relocationRefusalResult(outcome, from, "move_note");
				}
			}),
	);
}
