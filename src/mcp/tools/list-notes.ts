/** list_notes: the notes directly inside one folder, each with its revision, plus its sub-folders. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { validateVaultPath } from "../../core/path";
import { revisionOf } from "../../core/revision";
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
			annotations: { readOnlyHint: true },
		},
		({ folder }) => guarded(context, async () => {
			const checked = checkPath(context, folder ?? "", "folder");
			if (!checked.ok) return checked.result;
			const { gateway } = context.guard;
			const entries = await gateway.list(checked.path);
			if (!entries) return fail(`There is no folder ${JSON.stringify(checked.path)}. Call list_notes without a folder to see the vault root.`);
			const policy = context.guard.pathPolicy();
			// Only what the tools would serve: notes of a served type, outside hidden and private folders.
			const served = (path: string, kind: "note" | "folder") => validateVaultPath(path, policy, kind).ok;
			const folders = entries.filter((entry) => entry.type === "folder").map((entry) => entry.path.replace(/\/$/, "")).filter((path) => served(path, "folder"));
			const files = entries.filter((entry) => entry.type === "file" && served(entry.path, "note"));
			const notes = [];
			for (const entry of files) {
				const snapshot = await gateway.read(entry.path);
				if (snapshot) notes.push({ path: snapshot.path, revision: revisionOf(snapshot.content), size: snapshot.stat.size, mtime: snapshot.stat.mtime });
			}
			return ok({ folder: checked.path, notes, folders });
		}),
	);
}
