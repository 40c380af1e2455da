/** list_notes: the notes directly inside one folder, each with its change tag (never a revision), plus its sub-folders. */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, toolError, guarded, ok } from "./context";
import { changeTagOf } from "../../core/revision-tokens";

export const LIST_NOTES_DESCRIPTION =
	"List the notes directly inside a folder (the vault root when `folder` is omitted). " +
	"Not recursive: sub-folders are listed in `folders`; " +
	("call list_notes again with one of them to look inside. Each note comes with its " +
		"change tag (it changes whenever the note does), ") +
	("size (bytes) and modification time (epoch ms). A change tag is not a revision: listing " +
		"does not count as reading, so call read_note ") +
	"for the revision before you write a note.";

export function registerListNotes(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"list_notes",
		{
			title: "List notes in a folder",
			description: LIST_NOTES_DESCRIPTION,
			inputSchema: {
				folder: z
					.string()
					.optional()
					.describe('Vault-relative folder, e.g. "Projects"; omit (or "") for the vault root.'),
			},
			outputSchema: {
				folder: z.string(),
				notes: z.array(
					z.object({
						path: z.string(),
						changeTag: z.string().describe("Changes whenever the note does; not a revision (it passes no write)."),
						size: z.number(),
						mtime: z.number(),
					}),
				),
				folders: z.array(z.string()).describe("Sub-folders (vault-relative paths), not listed recursively."),
			},
			annotations: READS,
		},
		({ folder }) =>
			guarded(context, async () => {
				const folderPath = checkPath(context, folder ?? "", "folder");
				const listed = await context.notes.listFolder(context.actor(), folderPath);
				if (!listed)
					return toolError(
						`There is no folder ${JSON.stringify(folderPath)}. Call list_notes without a folder to see the vault root.`,
					);
				// Only what the tools would serve: notes of a served type (readable ones), and sub-folders.
				const folders = listed.filter((entry) => entry.type === "folder").map((entry) => entry.path.replace(/\/$/, ""));
				const notes = listed.flatMap((entry) =>
					entry.revision !== undefined && entry.stat
						? [
								{
									path: entry.path,
									changeTag: changeTagOf(entry.revision),
									size: entry.stat.size,
									mtime: entry.stat.mtime,
								},
							]
						: [],
				);
				return ok({ folder: folderPath, notes, folders });
			}),
	);
}
