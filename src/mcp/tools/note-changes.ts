/** note_changes: a unified diff from a revision the agent saw to the note now, as REST's GET /changes/{path}. */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { revisionField, tokenFor } from "../../core/revision-tokens";
import { unquoted, checkPath, toolError, guarded, ok } from "./context";

export const NOTE_CHANGES_DESCRIPTION =
	"Show what changed in a note since a revision you saw: a unified diff from that revision " +
	"to the note now. When the answer is the whole " +
	("diff from a revision you had, it also gives the note's current revision (you then " +
		"know all of it); a paged diff gives a changeTag instead. ") +
	("Useful after a refused write. To rewrite the note without the whole diff, call read_note " +
		"and pass its revision to write_note. ") +
	("A long diff comes in pages: when `truncated` is true, call again with `offset` set " +
		"to `nextOffset` (and `to` set to the `to` it returned).");

export function registerNoteChanges(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"note_changes",
		{
			title: "What changed since a revision",
			description: NOTE_CHANGES_DESCRIPTION,
			inputSchema: {
				path: z.string().describe("Vault-relative note path."),
				since: z.string().min(1).describe("A revision of this note you saw (from read_note or a write)."),
				to: z
					.string()
					.min(1)
					.optional()
					.describe("Diff to this retained revision instead of the note now (for the next page of a long diff)."),
				offset: z
					.number()
					.int()
					.min(0)
					.optional()
					.describe("The first line of the diff to return: `nextOffset` from the previous page."),
			},
			outputSchema: {
				path: z.string(),
				since: z.string(),
				revision: z
					.string()
					.optional()
					.describe(
						"The note's current revision, given only when this answer is the whole diff to it " +
							"from a revision you had (pass it to your next write); otherwise changeTag.",
					),
				changeTag: z
					.string()
					.optional()
					.describe(
						"Instead of revision when this page is not the whole diff: it tells that the note " +
							"changed; call read_note for a revision.",
					),
				changed: z.boolean(),
				to: z
					.string()
					.describe(
						"The revision the diff ends at (a change tag unless this is the whole diff to the " +
							"note now); pass it back as `to` for the next page.",
					),
				diff: z
					.string()
					.describe("Unified diff from `since` to `to` (empty when unchanged); one page of it when `truncated`."),
				truncated: z.boolean().optional().describe("True when the diff goes on past this page."),
				nextOffset: z.number().optional().describe("Pass as `offset` (with the same `to`) for the next page."),
				lineCut: z
					.boolean()
					.optional()
					.describe(
						"True when a line longer than a whole page was cut (marked in the diff); read the note for all of it.",
					),
			},
			annotations: READS,
		},
		({ path, since, to, offset }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const from = unquoted(since);
				// The result carries the page twice (as text and as structure, as MCP asks), so each gets half the cap.
				const answer = await context.notes.changes(context.actor(), notePath, {
					since: from,
					offset: offset ?? 0,
					copies: 2,
					...(to !== undefined ? { to: unquoted(to) } : {}),
				});
				if (answer.kind === "missing") return toolError(`There is no note at ${JSON.stringify(notePath)}.`);
				if (answer.kind === "not-retained")
					return toolError(
						`Revision ${answer.revision} of ${JSON.stringify(notePath)} is not retained (or never ` +
							`existed), so no diff can be made. Call read_note to start from its current content.`,
					);
				const { page, sight } = answer;
				const more = {
					...(page.nextOffset === null ? {} : { truncated: true, nextOffset: page.nextOffset }),
					...(page.lineCut ? { lineCut: true } : {}),
				};
				// As REST's /changes: the note's revision only with the whole diff to it from a revision the agent had.
				const toSight = answer.to === answer.revision ? sight : "none";
				return ok({
					path: notePath,
					since: from,
					to: tokenFor(answer.to, toSight),
					...revisionField("revision", answer.revision, sight),
					changed: answer.changed,
					diff: page.text,
					...more,
				});
			}),
	);
}
