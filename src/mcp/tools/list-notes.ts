/** list_notes: the notes directly inside one folder, each with its revision, plus its sub-folders. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, fail, guarded, ok } from "./context";

export const LIST_NOTES_DESCRIPTION =
	"List the notes directly inside a folder (the vault root when `folder` is omitted). Not recursive: sub-folders are listed in `folders`; " +
	"call list_notes again with one of them to look inside. Each note comes with its current revision, size (bytes) and modification time " +
	"(epoch ms). Listing does not count as reading: call read_note before you write a note.";

export function registerListNotes(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"list_notes",
		{
			title: "List notes in a folder",
			description: LIST_NOTES_DESCRIPTION,
			inputSchema: { folder: z.string().optional().describe('Vault-relative folder, e.g. "Projects"; omit (or "") for the vault root.') },
			outputSchema: {
				folder: z.string(),
				notes: z.array(z.object({ path: z.string(), revision: z.string(), size: z.number(), mtime: z.number() })),
				folders: z.array(z.string()).describe("Sub-folders (vault-relative paths), not listed recursively."),
			},
			annotations: READS,
		},
		({ folder }) => guarded(context, async () => {
			const folderPath = checkPath(context, folder ?? "", "folder");
			const listed = await context.notes.listFolder(folderPath);
			if (!listed) return fail(`There is no folder ${JSON.stringify(folderPath)}. Call list_notes without a folder to see the vault root.`);
			// Only what the tools would serve: notes of a served type (with revisions), and sub-folders.
			const folders = listed.filter((entry) => entry.type === "folder").map((entry) => entry.path.replace(/\/$/, ""));
			const notes = listed.flatMap((entry) => (entry.revision !== undefined && entry.stat ? [{ path: entry.path, revision: entry.revision, size: entry.stat.size, mtime: entry.stat.mtime }] : []));
			return ok({ folder: folderPath, notes, folders });
		}),
	);
}
