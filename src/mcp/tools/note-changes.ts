/** note_changes: a unified diff from a revision the agent saw to the note now, as REST's GET /changes/{path}. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { unifiedDiff } from "../../core/diff/unified";
import { revisionOf } from "../../core/revision";
import type { ToolContext } from "./context";
import { checkPath, fail, guarded, ok } from "./context";

export const NOTE_CHANGES_DESCRIPTION =
	"Show what changed in a note since a revision you saw: a unified diff from that revision to the note now, and the note's current revision. " +
	"Useful after a refused write. It does not give you the whole note: to rewrite it, call read_note and pass its revision to write_note.";

export function registerNoteChanges(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"note_changes",
		{
			title: "What changed since a revision",
			description: NOTE_CHANGES_DESCRIPTION,
			inputSchema: {
				path: z.string().describe("Vault-relative note path."),
				since: z.string().min(1).describe("A revision of this note you saw (from read_note or a write)."),
			},
			outputSchema: {
				path: z.string(),
				since: z.string(),
				revision: z.string().describe("The note's current revision."),
				changed: z.boolean(),
				diff: z.string().describe("Unified diff from `since` to the note now (empty when unchanged)."),
			},
			annotations: { readOnlyHint: true },
		},
		({ path, since }) => guarded(context, async () => {
			const checked = checkPath(context, path, "note");
			if (!checked.ok) return checked.result;
			const { guard } = context;
			const from = since.replace(/^"(.*)"$/, "$1");
			const snapshot = await guard.gateway.read(checked.path);
			if (!snapshot) return fail(`There is no note at ${JSON.stringify(checked.path)}.`);
			const base = await guard.bases.get(from);
			if (base === null) {
				return fail(`Revision ${from} of ${JSON.stringify(checked.path)} is not retained (or never existed), so no diff can be made. Call read_note to start from its current content.`);
			}
			const revision = await guard.tracker.served(snapshot);
			const diff = unifiedDiff(base, snapshot.content, { fromLabel: `a/${checked.path}@${from.slice(0, 12)}`, toLabel: `b/${checked.path}` });
			return ok({ path: checked.path, since: from, revision, changed: from !== revisionOf(snapshot.content), diff });
		}),
	);
}
