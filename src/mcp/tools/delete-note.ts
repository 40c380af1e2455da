/** delete_note: move a note to the trash, only when the revision the agent read is still the note's. */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { DELETES } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, guarded, heldAt, ifMatchOf, ok } from "./context";
import { refusalResult } from "./refusal";

export const DELETE_NOTE_DESCRIPTION =
	"Move a note to the trash. Needs the revision from your last read_note of it, as " +
	"`revision` (a client without a session, as every MCP 2026-07-28 client is, must pass " +
	"it): if the note changed since, nothing is deleted " +
	"and the error gives the current revision and what changed.";

export function registerDeleteNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"delete_note",
		{
			title: "Delete a note",
			description: DELETE_NOTE_DESCRIPTION,
			inputSchema: {
				path: z.string().describe('Vault-relative note path, e.g. "Inbox/Draft.md".'),
				revision: z.string().min(1).describe("The revision from your last read_note of this note."),
			},
			outputSchema: { path: z.string(), deleted: z.boolean() },
			annotations: DELETES,
		},
		({ path, revision }, extra) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const outcome = await context.notes.write({
					path: notePath,
					operation: { kind: "delete" },
					ifMatch: ifMatchOf(revision),
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
					...heldAt(context, extra.requestId, notePath),
				});
				if (outcome.kind === "refused") return refusalResult(notePath, outcome, "delete_note");
				if (outcome.kind !== "deleted") throw new Error(`a delete ended as "${outcome.kind}"`);
				return ok({ path: notePath, deleted: true });
			}),
	);
}
