/**
 * edit_note: exact old → new text replacements (the writer's `edit` operation), applied inside the atomic write step
 * on the note as it is then. It needs no revision, because it cannot change what it did not match.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { PROPOSAL_OUTPUT } from "./proposed";
import { MAX_EDITS } from "../../core/edit";
import { REWRITES } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, guarded, ifMatchOf } from "./context";
import { inPlaceChangeResult } from "./inapplicable";

export const EDIT_NOTE_DESCRIPTION =
	"Change part of a note by exact text replacement: the best tool for most changes " +
	"to an existing note. Each edit's old_string must occur " +
	("exactly once in the note (copy it from read_note, whitespace and line breaks included; " +
		"add surrounding text to make it unique), or set ") +
	("replace_all to change every occurrence. new_string is taken literally: $& and $$ " +
		"are plain text, not patterns. Several edits apply in order, ") +
	("each on the result of the one before, all or nothing. No revision is needed: the " +
		"edits are applied to the note as it is when they are ") +
	("written and change nothing they did not match, so two edits to different parts of " +
		"a note both land. Pass `revision` to apply them only if ") +
	("the note has not changed since that read. To replace a whole note, use write_note; " +
		"to add to a heading's section or set a frontmatter field, patch_note.");

const edit = z.object({
	old_string: z.string().describe("The exact text to replace, as it is in the note (not empty)."),
	new_string: z.string().describe("The text to put in its place (literal)."),
	replace_all: z
		.boolean()
		.optional()
		.describe("true: replace every occurrence of old_string (otherwise it must occur exactly once)."),
});

export function registerEditNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"edit_note",
		{
			title: "Edit text in a note",
			description: EDIT_NOTE_DESCRIPTION,
			inputSchema: {
				path: z.string().describe('Vault-relative note path, e.g. "Projects/Plan.md".'),
				edits: z.array(edit).min(1).max(MAX_EDITS).describe(`The replacements, applied in order (1 to ${MAX_EDITS}).`),
				revision: z
					.string()
					.min(1)
					.optional()
					.describe(
						"Optional: the revision from your last read_note; the edits are then refused if the note changed since.",
					),
			},
			outputSchema: {
				path: z.string(),
				revision: z
					.string()
					.optional()
					.describe("The note's new revision. Absent when the edit waits for the person as a proposal (proposalId)."),
				...PROPOSAL_OUTPUT,
			},
			annotations: REWRITES,
		},
		({ path, edits, revision }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const outcome = await context.notes.write({
					path: notePath,
					operation: {
						kind: "edit",
						edits: edits.map((one) => ({
							old: one.old_string,
							new: one.new_string,
							replaceAll: one.replace_all === true,
						})),
					},
					ifMatch: ifMatchOf(revision),
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
				});
				return inPlaceChangeResult(notePath, outcome, "edit_note", context);
			}),
	);
}
