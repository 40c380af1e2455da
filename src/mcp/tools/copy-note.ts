/** copy_note: a new note with another note's text as it is now; a destination is replaced only on request, with its revision. */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { revisionField } from "../../core/revision-tokens";
import { COPIES } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, toolError, guarded, ifMatchOf, ok } from "./context";
import { checkDestination, relocationRefusalResult } from "./relocation";
import { notFoundSentence } from "../../core/refusal-wording";

export const COPY_NOTE_DESCRIPTION =
	"Copy a note to a new path, with its text as it is now. No revision is needed (nothing " +
	"is overwritten); pass `revision` to copy only " +
	('exactly the revision you read. `destination` is the new path; ending it in "/" keeps ' +
		"the note's name in that folder. A note already at ") +
	("the destination is never replaced unless you pass overwrite: true and its revision " +
		"as destination_revision. The copy's revision comes back ") +
	"only if you had read the note whole; otherwise a change tag (call read_note on the copy before writing it).";

export function registerCopyNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"copy_note",
		{
			title: "Copy a note",
			description: COPY_NOTE_DESCRIPTION,
			inputSchema: {
				path: z.string().describe('The note to copy, e.g. "Templates/Weekly.md".'),
				destination: z
					.string()
					.describe('The copy\'s path, e.g. "Weekly/2026-W12.md", or a folder ending in "/" to keep the name.'),
				revision: z
					.string()
					.min(1)
					.optional()
					.describe("Optional: copy only if the note is still this revision (from your last read_note)."),
				overwrite: z
					.boolean()
					.optional()
					.describe(
						"true: replace a note at the destination (needs destination_revision, or this session's read of it).",
					),
				destination_revision: z
					.string()
					.min(1)
					.optional()
					.describe("With overwrite: the revision from your last read_note of the note at the destination."),
			},
			outputSchema: {
				path: z.string().describe("The copy's path."),
				from: z.string(),
				revision: z.string().optional().describe("The copy's revision, when you had read the note whole."),
				changeTag: z
					.string()
					.optional()
					.describe("Instead of revision, when you had not: call read_note before writing the copy."),
				created: z
					.boolean()
					.describe("False when it replaced a note (overwrite) or that note already held the same text."),
			},
			annotations: COPIES,
		},
		({ path, destination, revision, overwrite, destination_revision: destinationRevision }) =>
			guarded(context, async () => {
				const from = checkPath(context, path, "note");
				const to = checkDestination(context, destination, from);
				const outcome = await context.notes.copy({
					from,
					to,
					ifMatch: ifMatchOf(revision),
					overwrite: overwrite === true,
					destinationIfMatch: ifMatchOf(destinationRevision),
					actor: context.actor(),
				});
				switch (outcome.kind) {
					case "copied":
						return ok({
							path: outcome.to,
							from,
							...revisionField("revision", outcome.revision, outcome.sight),
							created: outcome.created,
						});
					case "missing":
						return toolError(
							`${notFoundSentence(JSON.stringify(from), "copied")} Call list_notes to see what is there.`,
							{ error: "note-not-found", path: from },
						);
					case "refused":
						return relocationRefusalResult(outcome, from, "copy_note");
				}
			}),
	);
}
