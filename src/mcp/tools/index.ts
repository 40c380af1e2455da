/**
 * The MCP server of one session (or of one stateless request): its instructions, our tools and the Local REST API's,
 * each bound to its context (which of them tools/list shows: tool-visibility.ts).
 */
import { McpServer } from "../protocol/server";
import { registerAppendNote } from "./append-note";
import { registerConflictStatus } from "./conflict-status";
import { registerProposalStatus } from "./proposal-status";
import type { ToolContext } from "./context";
import { registerDeleteNote } from "./delete-note";
import { registerEditNote } from "./edit-note";
import { registerListNotes } from "./list-notes";
import { registerCopyNote } from "./copy-note";
import { registerMoveNote } from "./move-note";
import { registerListTags } from "./list-tags";
import { registerNoteChanges } from "./note-changes";
import { registerNoteOutline } from "./note-outline";
import { registerPatchNote } from "./patch-note";
import { registerQueryNotes } from "./query-notes";
import { registerReadNote } from "./read-note";
import { registerSearchNotes } from "./search-notes";
import { registerWriteNote } from "./write-note";
import { LRA_INSTRUCTIONS, registerLraTools } from "../lra";
import { registerPeriodicNote } from "./periodic-note";
import { registerWorkspaceTools } from "./workspace-tools";

declare const __VERSION__: string | undefined;
export const VERSION = typeof __VERSION__ === "string" ? __VERSION__ : "dev";

/** The tool names are part of the contract with agents. */
export const TOOL_NAMES = [
	"read_note",
	"note_outline",
	"edit_note",
	"patch_note",
	"write_note",
	"append_note",
	"delete_note",
	"move_note",
	"copy_note",
	"list_notes",
	"note_changes",
	"conflict_status",
	"proposal_status",
	"list_tags",
	"search_notes",
	"query_notes",
] as const;

export const INSTRUCTIONS =
	"This server edits an Obsidian vault without ever silently overwriting what a person " +
	"wrote. read_note returns a note's content and its " +
	("revision. To change part of a note, use edit_note (exact old → new text; it needs " +
		"no revision, because it changes only what it matches) ") +
	("or patch_note (a heading's section, a frontmatter field or a block; note_outline " +
		"lists what it can target); to replace a whole note, write_note; to add at its end, append_note. ") +
	("Replacing, patching or deleting an existing note needs the revision from your last " +
		"read (as `revision`). If the note changed since, the ") +
	("write is refused, your content is kept as a .bak note, and the error says what changed " +
		"and which call to make next. move_note needs the ") +
	("revision too; move_note and copy_note never replace a note at their destination " +
		"unless you ask, with that note's revision. To find notes, ") +
	"search_notes (words) or query_notes (tags, frontmatter, paths, links).";

/** `toolSet`: which set the client sees listed (tool-visibility.ts), which decides what the instructions speak of. */
export function createMcpServer(context: ToolContext, toolSet: "revision-guard" | "lra" = "revision-guard"): McpServer {
	const instructions = toolSet === "lra" ? LRA_INSTRUCTIONS : INSTRUCTIONS;
	const server = new McpServer({ name: "revision-guard", version: VERSION }, context.notes.timers, instructions);
	registerReadNote(server, context);
	registerNoteOutline(server, context);
	registerEditNote(server, context);
	registerPatchNote(server, context);
	registerWriteNote(server, context);
	registerAppendNote(server, context);
	registerDeleteNote(server, context);
	registerMoveNote(server, context);
	registerCopyNote(server, context);
	registerListNotes(server, context);
	registerNoteChanges(server, context);
	registerConflictStatus(server, context);
	registerProposalStatus(server, context);
	registerListTags(server, context);
	registerSearchNotes(server, context);
	registerQueryNotes(server, context);
	registerPeriodicNote(server, context);
	// Listed only where they work (tool-visibility.ts), like the Local REST API's set registered next.
	registerWorkspaceTools(server, context);
	registerLraTools(server, context);
	return server;
}
