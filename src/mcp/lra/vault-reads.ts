/**
 * vault_list, vault_read and vault_get_document_map, with the Local REST API 5.1's names, arguments and answers. A
 * read counts as this session's read exactly as read_note does (a section or a document map as a read of part of the
 * note), so vault_write, vault_patch and vault_delete, which take no revision, are held to it.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { documentMap } from "../../core/markdown/document-map";
import { readFrontmatter } from "../../core/markdown/frontmatter";
import { readTarget } from "../../core/read-target";
import { partTokenOf } from "../../core/revision-tokens";
import { noteTags } from "../../core/tags";
import { READS } from "../tools/annotations";
import { checkPath, guarded, type ToolContext } from "../tools/context";
import { lraText, stop } from "./answers";
import { lraTarget } from "./targets";

const pathArg = z.string().describe("File path relative to vault root");

export function registerLraReads(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"vault_list",
		{
			description:
				"List files and subdirectories inside a vault directory. Returns {files: [...]}: " +
				"names, directories ending with '/'. Omit path (or pass \"\") for the vault root.",
			inputSchema: { path: z.string().optional().describe("Directory path relative to vault root (default: root)") },
			annotations: READS,
		},
		({ path }) =>
			guarded(context, async () => {
				const folder = checkPath(context, (path ?? "").replace(/^\/+|\/+$/g, ""), "folder");
				const listed = await context.notes.listFolder(context.actor(), folder);
				if (!listed)
					stop(`There is no folder ${JSON.stringify(folder)}. Call vault_list without a path to see the vault root.`);
				return lraText({ files: listed.map((entry) => entry.name) });
			}),
	);

	server.registerTool(
		"vault_read",
		{
			description:
				"Read a vault file: returns {path, content, tags, frontmatter, stat, revision}. With " +
				"targetType and target, only that part: a heading's section or a block's text as markdown, " +
				"a frontmatter value (a string as it is, anything else as JSON). " +
				("Writes that take no revision (vault_write, vault_patch without ifMatch, vault_delete) " +
					"are checked against your last read of the note in this session: if it changed since, " +
					"they are refused and your content is kept."),
			inputSchema: {
				path: pathArg,
				targetType: z
					.enum(["heading", "block", "frontmatter"])
					.optional()
					.describe("Type of section to extract: 'heading', 'block' reference, or 'frontmatter' key"),
				target: z
					.union([z.array(z.string()), z.string()])
					.optional()
					.describe(
						"A heading: the array of heading texts from the top level down (a bare string is " +
							"refused). A block: its id without '^'. A frontmatter field: its key.",
					),
				scope: z
					.enum(["content", "marker", "markerAndContent"])
					.optional()
					.describe(
						"'content' (the default): the part's body; 'marker': the heading line or block id; 'markerAndContent': both.",
					),
			},
			annotations: READS,
		},
		({ path, targetType, target, scope }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				if ((targetType === undefined) !== (target === undefined))
					stop("targetType and target must be provided together. Nothing was read.");
				if (scope !== undefined && targetType === undefined)
					stop("scope requires targetType and target. Nothing was read.");
				const read = await context.notes.read(context.actor(), notePath, { part: targetType !== undefined });
				if (read.kind !== "read")
					stop(
						`File not found: ${notePath}. Call vault_list to see what the folder holds, or vault_write to create it.`,
					);
				if (targetType === undefined) {
					const frontmatter = readFrontmatter(read.content);
					return lraText({
						path: read.path,
						content: read.content,
						tags: noteTags(read.content),
						frontmatter: frontmatter.data ?? {},
						stat: { ...read.stat },
						revision: read.revision,
					});
				}
				const resolved = lraTarget(targetType, target);
				if (!resolved.ok) stop(`Invalid target: ${resolved.reason}. Nothing was read.`);
				const headingPath = Array.isArray(resolved.target) ? resolved.target : undefined;
				const part = readTarget(
					read.content,
					targetType,
					headingPath ? headingPath.join("::") : (resolved.target as string),
					headingPath,
					scope,
				);
				switch (part.kind) {
					case "text":
						return lraText(part.text);
					case "json":
						return lraText(part.value ?? null);
					default:
						return stop(
							`${part.detail} Call vault_get_document_map {"path":${JSON.stringify(notePath)}} ` +
								`to see the note's headings, blocks and frontmatter keys.`,
						);
				}
			}),
	);

	server.registerTool(
		"vault_get_document_map",
		{
			description:
				"Return the structure of a vault file: {headings (a nested object of heading texts), " +
				"blocks (block ids), frontmatterFields, version}. Use a path of heading keys as a " +
				"vault_read or vault_patch heading target; pass version as vault_patch's ifMatch. " +
				"A heading repeated under one parent, or a block id used twice, has its own key at " +
				"each occurrence (the first plain, later ones with a non-printable suffix): copy keys " +
				"verbatim, never retype them. The map is a read of part of the note: it lets vault_patch " +
				"through, not vault_write or vault_delete.",
			inputSchema: { path: pathArg },
			annotations: READS,
		},
		({ path }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const read = await context.notes.read(context.actor(), notePath, { part: true });
				if (read.kind !== "read") stop(`File not found: ${notePath}.`);
				return lraText({ ...documentMap(read.content), version: partTokenOf(read.revision) });
			}),
	);
}
