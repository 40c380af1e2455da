/** write_note: create or replace a whole note through the guarded writer, with the session's implicit token (if any) and merge: "auto". */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { PROPOSAL_OUTPUT, proposedResult } from "./proposed";
import { REWRITES } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, guarded, heldAt, ifMatchOf, ok } from "./context";
import { refusalResult } from "./refusal";
import { tokenFor } from "../../core/revision-tokens";

export const WRITE_NOTE_DESCRIPTION =
	"Create a note, or replace a whole note. Creating a new note needs no revision. Replacing " +
	"an existing note needs the revision from your last " +
	("read: pass the `revision` read_note returned (with an MCP session, if you omit it, " +
		"the revision this session last read or wrote of that note ") +
	("is used; without a session, as every MCP 2026-07-28 client is, or if the session " +
		"never read it, the call is refused: call read_note first). If the note changed since that ") +
	("revision, nothing is written: your content is kept as a .bak note and the error " +
		"gives the current revision and what changed; call read_note, ") +
	("re-apply your change, and call write_note again with the new revision. With merge: " +
		'"auto" (like REST\'s Prefer: merge=auto), a stale write ') +
	("whose changes do not overlap the newer ones is merged and written instead of refused " +
		"(the result says merged: true). To change only part ") +
	("of a note, prefer edit_note (exact text, no revision needed) or patch_note (a heading's " +
		"section, a frontmatter field or a block): they leave ") +
	"the rest of the note as it is now.";

export function registerWriteNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"write_note",
		{
			title: "Create or replace a note",
			description: WRITE_NOTE_DESCRIPTION,
			inputSchema: {
				path: z.string().describe('Vault-relative note path, e.g. "Projects/Plan.md".'),
				content: z.string().describe("The whole new content of the note."),
				revision: z
					.string()
					.min(1)
					.optional()
					.describe(
						"The revision from your last read_note of this note. Required to replace an existing " +
							"note (with an MCP session, the session's last read is used when omitted).",
					),
				merge: z
					.enum(["auto"])
					.optional()
					.describe(
						'"auto": if the note changed since `revision`, merge your change with the newer one when they do not overlap.',
					),
				allow_empty: z
					.boolean()
					.optional()
					.describe(
						"true: you mean to replace a non-empty note with empty content (refused otherwise, " +
							"since empty content is usually a mistake).",
					),
			},
			outputSchema: {
				path: z.string(),
				revision: z
					.string()
					.optional()
					.describe(
						"The note's new revision: pass it to your next write of this note. After merged: " +
							"true it is a part token (part.…), which patch_note accepts; call read_note to see " +
							"the merge before replacing the note. Absent when the write waits for the person as " +
							"a proposal (proposalId).",
					),
				created: z.boolean().optional().describe("Whether the write created the note (absent with proposalId)."),
				...PROPOSAL_OUTPUT,
				merged: z
					.boolean()
					.optional()
					.describe("True when your revision was stale and a clean automatic merge was written."),
				mergeRules: z
					.array(z.enum(["frontmatter", "tags", "list"]))
					.optional()
					.describe(
						"With merged: the markdown rules that merged parts of it where a line merge would " +
							"have conflicted; check those parts.",
					),
			},
			annotations: REWRITES,
		},
		({ path, content, revision, merge, allow_empty: allowEmpty }, extra) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const outcome = await context.notes.write({
					path: notePath,
					operation: { kind: "replace", body: content },
					ifMatch: ifMatchOf(revision),
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
					...heldAt(context, extra.requestId, notePath),
					merge,
					allowEmpty,
				});
				switch (outcome.kind) {
					case "written":
						// After a merge the agent has not seen the note: its revision comes as a part token (see the description).
						return ok({
							path: notePath,
							revision: tokenFor(outcome.revision, outcome.sight),
							created: outcome.created,
							...(outcome.merged ? { merged: true } : {}),
							...(outcome.mergeRules ? { mergeRules: outcome.mergeRules } : {}),
						});
					case "unchanged":
						return ok({ path: notePath, revision: tokenFor(outcome.revision, outcome.sight), created: false });
					case "refused":
						return refusalResult(notePath, outcome, "write_note", context);
					case "proposed":
						return proposedResult(outcome);
					case "deleted":
					case "inapplicable":
						throw new Error(`a replace cannot end as "${outcome.kind}"`);
				}
			}),
	);
}
