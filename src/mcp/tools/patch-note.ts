/**
 * patch_note: REST's PATCH (a heading's section, a frontmatter field or a block) as a tool. The patch is an operation of the
 * guarded writer, computed inside its atomic step on the note as it is then, and checked like a whole-note write:
 * against the revision sent or, in a session, the session's last read. Stale: refused, the patched note kept as .bak.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { PROPOSAL_OUTPUT } from "./proposed";
import {
	applyPatch,
	PATCH_SCOPES,
	type PatchInstruction,
	type PatchOperation,
	type PatchTargetType,
	type PatchWarning,
} from "../../core/patch";
import { algebraError } from "../../core/patch-algebra";
import { parseDestination } from "../../core/patch-instruction";
import { REWRITES } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, toolError, guarded, heldAt, ifMatchOf, ok } from "./context";
import { inPlaceChangeResult } from "./inapplicable";

const TARGET_TYPES = ["heading", "frontmatter", "block"] as const satisfies readonly PatchTargetType[];
const OPERATIONS = ["append", "prepend", "replace", "delete"] as const satisfies readonly PatchOperation[];

export const PATCH_NOTE_DESCRIPTION =
	"Change one part of a note by its structure, without sending the whole note: append " +
	"to, prepend to, replace or delete the section under a " +
	('heading (target_type "heading", target the heading path outermost first, e.g. "Plan::Tasks"), ' +
		'a frontmatter field (target_type "frontmatter", ') +
	("target the key; with json: true, content is a JSON value such as a list) or a block " +
		'(target_type "block", target its id, e.g. "abc123" for ') +
	('^abc123; with json: true on a table block, content is rows as JSON, e.g. [["Chicago", ' +
		'"16"]]). scope "marker" acts on the label alone (replace renames ') +
	('a heading, keeping its level and body; a block id; a frontmatter key), "markerAndContent" ' +
		"on the whole heading section, block or frontmatter entry ") +
	('(append/prepend add a sibling), "parent" with destination moves a heading section. ' +
		"within picks one block of a section's own body (0 first, -1 last) ") +
	("and splices content into it literally. reject_if_content_preexists refuses an append/prepend " +
		"whose text is already there (a safe retry). ") +
	("Needs the revision from your last read (as `revision`; with an MCP session, the " +
		"session's last read is used when you omit it; a client without a session, as every " +
		"MCP 2026-07-28 client is, must pass it): if ") +
	("the note changed since, nothing is written, the patched note is kept as a .bak note " +
		"and the error says what changed. For exact text changes ") +
	"anywhere, edit_note needs no revision; to replace the whole note, use write_note.";

export function registerPatchNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"patch_note",
		{
			title: "Patch a section, field or block",
			description: PATCH_NOTE_DESCRIPTION,
			inputSchema: {
				path: z.string().describe('Vault-relative note path, e.g. "Projects/Plan.md".'),
				target_type: z
					.enum(TARGET_TYPES)
					.describe("What `target` names: a heading's section, a frontmatter key, or a block."),
				target: z
					.string()
					.describe(
						'The heading path (nested headings joined by "::", outermost first), the frontmatter key, or the block id.',
					),
				operation: z
					.enum(OPERATIONS)
					.describe(
						"Add at the end of the target (a section, a list or text field, a block), at its " +
							"start, replace it, or delete it.",
					),
				content: z
					.string()
					.optional()
					.describe(
						"The text to add or put in place (not used by delete); for frontmatter with json: true, a JSON value.",
					),
				revision: z
					.string()
					.min(1)
					.optional()
					.describe(
						"The revision from your last read_note of this note (with an MCP session, the session's " +
							"last read is used when omitted).",
					),
				json: z
					.boolean()
					.optional()
					.describe(
						"true reads content as JSON: a frontmatter value (lists, numbers, booleans), whole " +
							'frontmatter entries ({"key": value}, scope markerAndContent), or a table block\'s ' +
							'rows ([["a", "b"]]). Otherwise content is text.',
					),
				create_target_if_missing: z
					.boolean()
					.optional()
					.describe(
						"true: add the heading (at the end of its parent) or the key when it is missing, " +
							"instead of failing (scope content only).",
					),
				scope: z
					.enum(PATCH_SCOPES as [string, ...string[]])
					.optional()
					.describe(
						"What part of the target: \"content\" (default: a section's body, a block's text, " +
							'a value), "marker" (replace renames the heading/block id/key, given in content; delete ' +
							'removes just the heading line or id), "markerAndContent" (the whole section/block/entry), ' +
							'"parent" (a heading\'s place: operation replace with destination, a move).',
					),
				within: z
					.number()
					.int()
					.optional()
					.describe(
						"Heading targets: act on one top-level block of the section's own body (0 the first, " +
							'-1 the last). With scope content the content is spliced in literally (append "\\n- ' +
							'item" continues a list); with markerAndContent a new block is added beside it; delete ' +
							"removes the block.",
					),
				destination: z
					.object({
						parent: z
							.array(z.string())
							.nullable()
							.describe("The new parent heading path, outermost first; null for the note's top level."),
						place: z
							.union([
								z.enum(["first", "last"]),
								z.object({ before: z.array(z.string()) }),
								z.object({ after: z.array(z.string()) }),
							])
							.describe('"first", "last", or {"before": [...path]} / {"after": [...path]} of a sibling heading.'),
					})
					.optional()
					.describe(
						"With scope parent and operation replace: where the heading section moves (re-levelled to fit there).",
					),
				reject_if_content_preexists: z
					.boolean()
					.optional()
					.describe(
						"true: refuse an append or prepend whose text (trimmed) is already in the target, " +
							"so a retry never adds it twice.",
					),
			},
			outputSchema: {
				path: z.string(),
				revision: z
					.string()
					.optional()
					.describe(
						"The note's new revision: pass it to your next write of this note. Absent when the " +
							"patch waits for the person as a proposal (proposalId).",
					),
				...PROPOSAL_OUTPUT,
				warnings: z
					.array(z.object({ code: z.string(), message: z.string() }))
					.optional()
					.describe("Advice about what was written, e.g. a heading capped at level 6."),
			},
			annotations: REWRITES,
		},
		(args, extra) =>
			guarded(context, async () => {
				const {
					path,
					target_type: targetType,
					target,
					operation,
					content,
					revision,
					json,
					create_target_if_missing: create,
					scope,
					within,
					destination,
				} = args;
				const notePath = checkPath(context, path, "note");
				const move = scope === "parent";
				if (content === undefined && operation !== "delete" && !move)
					return toolError(
						`patch_note with operation "${operation}" needs content: the text to ${operation === "replace" ? "put in place" : "add"}. ` +
							`Nothing was written.`,
					);
				const body = content ?? "";
				const moveTo = destination === undefined ? undefined : parseDestination(destination);
				if (typeof moveTo === "string") return toolError(moveTo);
				const instruction: PatchInstruction = {
					operation,
					targetType,
					target,
					json: json === true,
					createTargetIfMissing: create === true,
					...(scope !== undefined ? { scope: scope as PatchInstruction["scope"] } : {}),
					...(within !== undefined ? { within } : {}),
					...(moveTo ? { destination: moveTo } : {}),
					...(args.reject_if_content_preexists ? { rejectIfContentPreexists: true } : {}),
				};
				const outside = algebraError(instruction, body);
				if (outside !== null) return toolError(`patch_note: ${outside}`);
				let warnings: PatchWarning[] = [];
				const outcome = await context.notes.write({
					path: notePath,
					// Computed inside the writer's atomic step, on the note as it is then, exactly as REST's PATCH.
					operation: {
						kind: "patch",
						apply: (current) => {
							const result = applyPatch(current, instruction, body);
							warnings = result.ok ? (result.warnings ?? []) : [];
							return result;
						},
					},
					ifMatch: ifMatchOf(revision),
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
					...heldAt(context, extra.requestId, notePath),
				});
				const result = await inPlaceChangeResult(notePath, outcome, "patch_note", context);
				// Advice about what landed (a heading capped at level 6), as REST's Markdown-Patch-Warnings.
				if (warnings.length === 0 || result.isError || !result.structuredContent) return result;
				return ok({ ...result.structuredContent, warnings });
			}),
	);
}
