/** append_note: add text at the end of a note (creating it if missing); appending overwrites nothing, so no revision. */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { PROPOSAL_OUTPUT, proposedResult } from "./proposed";
import { APPENDS } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, guarded, ok } from "./context";
import { refusalResult } from "./refusal";
import { tokenFor } from "../../core/revision-tokens";

export const APPEND_NOTE_DESCRIPTION =
	"Append text to the end of a note, creating the note if it is missing. Appending " +
	"overwrites nothing, so no revision is needed " +
	("(add your own leading newline if the note may not end in one). Returns the note's " +
		"new revision: if you had read the note's ") +
	("latest revision before appending, it is the revision itself; otherwise you have " +
		"not seen the whole note, and it is a part token ") +
	"(part.…) that patch_note and edit_note accept but write_note and delete_note do not (call read_note first).";

export function registerAppendNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"append_note",
		{
			title: "Append to a note",
			description: APPEND_NOTE_DESCRIPTION,
			inputSchema: {
				path: z.string().describe('Vault-relative note path, e.g. "Inbox/Log.md".'),
				content: z.string().describe("The text to add at the end."),
			},
			outputSchema: {
				path: z.string(),
				revision: z
					.string()
					.optional()
					.describe(
						"The note's revision after the append (a part token, part.…, unless you had read " +
							"the note whole just before). Absent when the append waits for the person as a proposal (proposalId).",
					),
				...PROPOSAL_OUTPUT,
			},
			annotations: APPENDS,
		},
		({ path, content }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const outcome = await context.notes.write({
					path: notePath,
					operation: { kind: "append", body: content },
					ifMatch: { kind: "absent" },
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
				});
				switch (outcome.kind) {
					case "written":
					case "unchanged":
						return ok({ path: notePath, revision: tokenFor(outcome.revision, outcome.sight) });
					case "refused":
						return refusalResult(notePath, outcome, "append_note", context);
					case "proposed":
						return proposedResult(outcome);
					case "deleted":
					case "inapplicable":
						throw new Error(`an append cannot end as "${outcome.kind}"`);
				}
			}),
	);
}
