/**
 * patch_note: REST's PATCH (a heading's section, a frontmatter field or a block) as a tool. The patch is an operation of the
 * guarded writer, computed inside its atomic step on the note as it is then, and checked like a whole-note write:
 * against the revision sent or, in a session, the session's last read. Stale: refused, the patched note kept as .bak.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { applyPatch, type PatchInstruction, type PatchOperation, type PatchTargetType } from "../../core/patch";
import { REWRITES } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, fail, guarded, heldAt, ifMatchOf } from "./context";
import { inPlaceChangeResult } from "./inapplicable";

const TARGET_TYPES = ["heading", "frontmatter", "block"] as const satisfies readonly PatchTargetType[];
const OPERATIONS = ["append", "prepend", "replace", "delete"] as const satisfies readonly PatchOperation[];

export const PATCH_NOTE_DESCRIPTION =
	"Change one part of a note by its structure, without sending the whole note: append to, prepend to, replace or delete the section under a " +
	'heading (target_type "heading", target the heading path outermost first, e.g. "Plan::Tasks"), a frontmatter field (target_type "frontmatter", ' +
	'target the key; with json: true, content is a JSON value such as a list) or a block (target_type "block", target its id, e.g. "abc123" for ' +
	"^abc123). Needs the revision from your last read (as `revision`; with an MCP session, the session's last read is used when you omit it): if " +
	"the note changed since, nothing is written, the patched note is kept as a .bak note and the error says what changed. For exact text changes " +
	"anywhere, edit_note needs no revision; to replace the whole note, use write_note.";

export function registerPatchNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"patch_note",
		{
			title: "Patch a section, field or block",
			description: PATCH_NOTE_DESCRIPTION,
			inputSchema: {
				path: z.string().describe('Vault-relative note path, e.g. "Projects/Plan.md".'),
				target_type: z.enum(TARGET_TYPES).describe("What `target` names: a heading's section, a frontmatter key, or a block."),
				target: z.string().describe('The heading path (nested headings joined by "::", outermost first), the frontmatter key, or the block id.'),
				operation: z.enum(OPERATIONS).describe("Add at the end of the target (a section, a list or text field, a block), at its start, replace it, or delete it."),
				content: z.string().optional().describe("The text to add or put in place (not used by delete); for frontmatter with json: true, a JSON value."),
				revision: z.string().min(1).optional().describe("The revision from your last read_note of this note (with an MCP session, the session's last read is used when omitted)."),
				json: z.boolean().optional().describe("Frontmatter only: true reads content as JSON (lists, numbers, booleans); otherwise it is one text value."),
				create_target_if_missing: z.boolean().optional().describe("true: add the heading (at the end of its parent) or the key when it is missing, instead of failing."),
			},
			outputSchema: { path: z.string(), revision: z.string().describe("The note's new revision: pass it to your next write of this note.") },
			annotations: REWRITES,
		},
		({ path, target_type: targetType, target, operation, content, revision, json, create_target_if_missing: create }, extra) => guarded(context, async () => {
			const notePath = checkPath(context, path, "note");
			if (content === undefined && operation !== "delete") return fail(`patch_note with operation "${operation}" needs content: the text to ${operation === "replace" ? "put in place" : "add"}. Nothing was written.`);
			const body = content ?? "";
			const instruction: PatchInstruction = { operation, targetType, target, json: json === true, createTargetIfMissing: create === true };
			const outcome = await context.notes.write({
				path: notePath,
				// Computed inside the writer's atomic step, on the note as it is then, exactly as REST's PATCH.
				operation: { kind: "patch", apply: (current) => applyPatch(current, instruction, body) },
				ifMatch: ifMatchOf(revision),
				ifNoneMatch: { kind: "absent" },
				actor: context.actor(),
				...heldAt(context, extra.requestId, notePath),
			});
			return inPlaceChangeResult(notePath, outcome, "patch_note", context);
		}),
	);
}
