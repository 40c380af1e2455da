/**
 * vault_write, vault_append, vault_patch and vault_delete, with the Local REST API 5.1's names, arguments and answers,
 * every one through the guarded writer. vault_write and vault_delete take no revision, so they are held to what this
 * session last read of the note (implicit tokens): unchanged since, they land; changed, they are refused and the
 * content is kept as a .bak; never read, refused until it is. vault_patch's optional ifMatch is checked when sent.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { applyPatch } from "../../core/patch";
import { parsePatchInstruction } from "../../core/patch-instruction";
import { APPENDS, DELETES, REWRITES } from "../tools/annotations";
import { checkPath, guarded, heldAt, ifMatchOf, type ToolContext } from "../tools/context";
import { lraError, lraOk, lraProposed, stop } from "./answers";
import { lraRefusal } from "./refusal";
import { lraTarget } from "./targets";

const pathArg = z.string().describe("File path relative to vault root");

export function registerLraWrites(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"vault_write",
		{
			description:
				"Create or overwrite a vault file with the given content (missing parent folders " +
				"are created). Overwriting is guarded: it lands only if the note is unchanged since " +
				"this session last read it (vault_read); if it changed, nothing is written, your content " +
				"is kept as a .bak note, and the error shows what changed. A note this session never " +
				"read is not overwritten: read it first.",
			inputSchema: { path: pathArg, content: z.string().describe("Full file content (markdown text)") },
			annotations: REWRITES,
		},
		({ path, content }, extra) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const outcome = await context.notes.write({
					path: notePath,
					operation: { kind: "replace", body: content },
					ifMatch: { kind: "absent" },
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
					...heldAt(context, extra.requestId, notePath),
				});
				if (outcome.kind === "refused") return lraRefusal(notePath, outcome, "vault_write", context);
				if (outcome.kind === "proposed") return lraProposed(outcome);
				return lraOk(outcome.kind === "written" && outcome.created ? { created: true } : {});
			}),
	);

	server.registerTool(
		"vault_append",
		{
			description:
				"Append content to the end of a vault file, creating it if it does not exist. Appending " +
				"overwrites nothing, so it needs no earlier read.",
			inputSchema: { path: pathArg, content: z.string().describe("Content to append") },
			annotations: APPENDS,
		},
		({ path, content }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const outcome = await context.notes.write({
					path: notePath,
					operation: { kind: "append", body: content },
					ifMatch: { kind: "absent" },
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
				});
				if (outcome.kind === "refused") return lraRefusal(notePath, outcome, "vault_append", context);
				if (outcome.kind === "proposed") return lraProposed(outcome);
				return lraOk();
			}),
	);

	server.registerTool(
		"vault_patch",
		{
			description:
				"Edit a vault file with one structured instruction: an operation ('replace', 'prepend', " +
				"'append' or 'delete') on a heading's section (target: the array of heading texts), " +
				"a block (target: its id) or a frontmatter field (target: its key). The payload is " +
				"'content' (markdown) or 'value' (any JSON, frontmatter only). " +
				("Pass ifMatch (vault_get_document_map's version) to make it conditional; without " +
					"it, your last read of the note in this session is used. A stale patch is refused, " +
					"the patched note kept as a .bak. scope 'marker' renames a heading or block id, 'markerAndContent' " +
					"rewrites it whole, 'parent' with destination moves a section."),
			inputSchema: {
				path: pathArg,
				targetType: z.enum(["heading", "block", "frontmatter"]).describe("What target names."),
				target: z
					.union([z.array(z.string()), z.string(), z.null()])
					.describe(
						"A heading: the array of heading texts from the top level down. A block: its id without " +
							"'^'. A frontmatter field: its key.",
					),
				operation: z.enum(["replace", "prepend", "append", "delete"]),
				scope: z
					.enum(["content", "marker", "markerAndContent", "parent"])
					.optional()
					.describe(
						"'content' (the default): the part's body; 'marker': the heading line or block id; " +
							"'markerAndContent': both; 'parent': move the section to destination.",
					),
				content: z.string().optional().describe("Markdown text to put in place or add."),
				value: z.unknown().optional().describe("A JSON value (frontmatter only)."),
				destination: z
					.unknown()
					.optional()
					.describe(
						'Where scope "parent" moves a section: {"parent": ["Heading"] or null, "place": "first" ' +
							'| "last" | {"before": [...]} | {"after": [...]}}.',
					),
				within: z
					.number()
					.int()
					.optional()
					.describe(
						"The index of a block in the section's own body (0 the first, -1 the last) to act " +
							"on instead of the whole section.",
					),
				ifMatch: z
					.string()
					.optional()
					.describe("The document map's version (or the revision): the patch lands only on that version."),
				createTargetIfMissing: z.boolean().optional(),
				rejectIfContentPreexists: z
					.boolean()
					.optional()
					.describe("Refuse an append or prepend whose content is already in the target."),
			},
			annotations: REWRITES,
		},
		(args, extra) =>
			guarded(context, async () => {
				const notePath = checkPath(context, args.path, "note");
				const resolved = lraTarget(args.targetType, args.target, true);
				if (!resolved.ok) stop(`target: ${resolved.reason}. Nothing was written.`);
				// The same instruction REST's JSON PATCH takes, read by the same rules (what is not carried out is refused by name).
				const fields: Record<string, unknown> = { ...args, target: resolved.target };
				delete fields.path;
				const instruction = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
				const parsed = parsePatchInstruction(JSON.stringify(instruction));
				if (!parsed.ok) stop(`${parsed.detail}`);
				const { instruction: patch, body, ifMatch } = parsed.parsed;
				const outcome = await context.notes.write({
					path: notePath,
					operation: { kind: "patch", apply: (current) => applyPatch(current, patch, body) },
					ifMatch: ifMatchOf(ifMatch),
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
					...heldAt(context, extra.requestId, notePath),
				});
				switch (outcome.kind) {
					case "written":
					case "unchanged":
						return lraOk();
					case "inapplicable":
						return lraError(
							`${outcome.detail} Nothing was written to ${JSON.stringify(notePath)}. Call vault_get_document_map ` +
								`to see its headings, blocks and frontmatter keys (or set createTargetIfMissing).`,
							{ error: outcome.reason, path: notePath },
						);
					case "refused":
						if (outcome.refusal.reason === "not-found")
							return lraError(
								`File not found: ${notePath}. vault_patch changes an existing note; create it with vault_write.`,
							);
						return lraRefusal(notePath, outcome, "vault_patch", context);
					case "proposed":
						return lraProposed(outcome);
					case "deleted":
						throw new Error("a patch cannot end as a delete");
				}
			}),
	);

	server.registerTool(
		"vault_delete",
		{
			description:
				"Delete a file from the vault: it is moved to the trash (Obsidian's Deleted files " +
				"setting; never deleted permanently here). Guarded: it lands only if the note is unchanged " +
				"since this session last read it.",
			inputSchema: {
				path: pathArg,
				permanent: z
					.boolean()
					.optional()
					.describe("Ignored: notes are always moved to the trash, so a delete can be undone."),
			},
			annotations: DELETES,
		},
		({ path }, extra) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const outcome = await context.notes.write({
					path: notePath,
					operation: { kind: "delete" },
					ifMatch: { kind: "absent" },
					ifNoneMatch: { kind: "absent" },
					actor: context.actor(),
					...heldAt(context, extra.requestId, notePath),
				});
				if (outcome.kind === "refused") {
					if (outcome.refusal.reason === "not-found")
						return lraError(`File not found: ${notePath}; nothing was deleted.`);
					return lraRefusal(notePath, outcome, "vault_delete", context);
				}
				return lraOk({ trashed: true });
			}),
	);
}
