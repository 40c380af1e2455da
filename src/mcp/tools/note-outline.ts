/**
 * note_outline: what patch_note can target in a note (the Local REST API's document map, as flat lists): each heading's
 * target, each block id, each frontmatter key, and a part token. The outline shows the note's structure, not its text,
 * so its token can stand behind patch_note, never behind write_note or delete_note.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { noteOutline } from "../../core/markdown/document-map";
import { partTokenOf } from "../../core/revision-tokens";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, toolError, guarded, ok } from "./context";

/** Bounds of one answer: entries per list, and characters of heading targets (it is sent twice: text and structure). */
const MAX_ITEMS = 2000;
const MAX_TARGET_CHARS = 64 * 1024;

export const NOTE_OUTLINE_DESCRIPTION =
	"Outline a note for patch_note: its headings (each with the `target` that names it: " +
	"nested headings joined by '::', outermost first), " +
	("its block ids and its frontmatter keys, plus a `revision` that patch_note accepts " +
		"(it stands for this view of the note's structure, so it ") +
	("cannot replace or delete the note: read_note for that). A heading repeated under " +
		"the same parent, or a block id used twice, has a target ") +
	("of its own at each occurrence (later ones end in non-printable characters): copy " +
		"targets verbatim, never retype them.");

export function registerNoteOutline(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"note_outline",
		{
			title: "Outline a note",
			description: NOTE_OUTLINE_DESCRIPTION,
			inputSchema: { path: z.string().describe('Vault-relative note path, e.g. "Projects/Plan.md".') },
			outputSchema: {
				path: z.string(),
				headings: z.array(
					z.object({ target: z.string().describe("patch_note's target for this heading."), level: z.number() }),
				),
				blocks: z.array(z.string()).describe("Block ids (without ^), patch_note targets with target_type block."),
				frontmatterFields: z.array(z.string()),
				revision: z.string().describe("Pass as patch_note's `revision`; it does not pass write_note or delete_note."),
				truncated: z.boolean().optional().describe("Present when a list stopped at its bound (2,000 entries)."),
			},
			annotations: READS,
		},
		({ path }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				// A read of part of the note (its structure): it may stand behind a patch, never behind replacing the note.
				const read = await context.notes.read(context.actor(), notePath, { part: true });
				if (read.kind !== "read")
					return toolError(
						`There is no note at ${JSON.stringify(notePath)}. Call list_notes to see what the folder holds.`,
					);
				return ok({
					path: read.path,
					...noteOutline(read.content, MAX_ITEMS, MAX_TARGET_CHARS),
					revision: partTokenOf(read.revision),
				});
			}),
	);
}
