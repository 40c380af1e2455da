/** read_note: a note with its revision; marks it served and records the read for this session, as REST GET does. */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, toolError, guarded, ok } from "./context";

export const READ_NOTE_DESCRIPTION =
	"Read a note: returns its content and its revision token. Replacing, patching or " +
	"deleting the note needs the revision from your last read: " +
	("pass it as `revision` to write_note, patch_note or delete_note (with an MCP session, " +
		"write_note and patch_note fall back to the session's ") +
	("last read when you omit it). edit_note needs none. If the note changes after your " +
		"read, a write based on it is refused and nothing is overwritten.");

export function registerReadNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"read_note",
		{
			title: "Read a note",
			description: READ_NOTE_DESCRIPTION,
			inputSchema: { path: z.string().describe('Vault-relative note path, e.g. "Projects/Plan.md".') },
			outputSchema: {
				path: z.string(),
				content: z.string(),
				revision: z
					.string()
					.describe("Pass this as `revision` to write_note, patch_note, delete_note (or, optionally, edit_note)."),
			},
			annotations: READS,
		},
		({ path }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				// A read is kept as a merge base (so a later refusal can show exactly what changed) and is this session's last read.
				const read = await context.notes.read(context.actor(), notePath);
				if (read.kind !== "read")
					return toolError(
						`There is no note at ${JSON.stringify(notePath)}. To create it, call write_note without a revision.`,
					);
				return ok({ path: read.path, content: read.content, revision: read.revision });
			}),
	);
}
