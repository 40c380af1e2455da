/**
 * Tool annotations (MCP 2025-11-25 `ToolAnnotations`): hints a client uses to decide which calls need a person's
 * approval. Every tool works on this vault alone, so none is open-world. The spec's meanings, applied here:
 * - `readOnlyHint`: the tool does not modify its environment (the vault). read_note records the read for the session
 *   (its implicit revision) and keeps a merge base: server bookkeeping, not a change to any note.
 * - `destructiveHint`: the tool may do more than add. Replacing, patching, editing or deleting a note can remove text
 *   a person wrote (a refused write removes nothing, but a client cannot know in advance which calls will be refused).
 * - `idempotentHint`: repeating the call with the same arguments has no additional effect.
 */
import type { ToolAnnotations } from "../protocol/types";

/** read_note, list_notes, note_changes, conflict_status. (destructive and idempotent mean nothing for these, per the spec.) */
export const READS: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** append_note: only adds text, and a repeat adds it again. */
export const APPENDS: ToolAnnotations = {
	readOnlyHint: false,
	destructiveHint: false,
	idempotentHint: false,
	openWorldHint: false,
};

/**
 * write_note, patch_note, edit_note. Not idempotent: a repeat changes nothing only if nobody touched the note in
 * between. After someone else's edit, the same write_note (same revision) is refused and leaves a .bak note and a
 * conflict record for the person, or with merge: "auto" merges again; a patch that appends, or an edit whose new text
 * contains its old text, applies again.
 */
export const REWRITES: ToolAnnotations = {
	readOnlyHint: false,
	destructiveHint: true,
	idempotentHint: false,
	openWorldHint: false,
};

/**
 * delete_note. Idempotent: the revision names exactly the content to delete, so a repeat finds the note gone (not
 * found) or changed (refused, and a refused delete keeps nothing), and has no further effect.
 */
export const DELETES: ToolAnnotations = {
	readOnlyHint: false,
	destructiveHint: true,
	idempotentHint: true,
	openWorldHint: false,
};

/**
 * move_note. Destructive: with overwrite it replaces the note at the destination (to the trash), and inside Obsidian
 * it changes the notes that link to the moved one. Idempotent: the revision names exactly the note to move, so a
 * repeat finds it gone from its path (not found) and has no further effect.
 */
export const MOVES: ToolAnnotations = {
	readOnlyHint: false,
	destructiveHint: true,
	idempotentHint: true,
	openWorldHint: false,
};

/**
 * copy_note. Destructive: with overwrite it replaces the note at the destination. Not idempotent: a repeat with
 * overwrite, held to this session's read of the copy, copies the note again if it changed in between.
 */
export const COPIES: ToolAnnotations = {
	readOnlyHint: false,
	destructiveHint: true,
	idempotentHint: false,
	openWorldHint: false,
};
