/**
 * What only Obsidian has, as tools: the active note (active_note), opening a note in a pane (open_note), and its
 * commands (list_commands, run_command), which run only for a key the person allowed, every note they change
 * credited to the key. Listed only where they can work (tool-visibility.ts).
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { validateVaultPath } from "../../core/path";
import { changeTagOf } from "../../core/revision-tokens";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { checkPath, toolError, guarded, ok } from "./context";
import { commandRunFacts, commandRunFailure, WORKSPACE_HEADLESS } from "./workspace-answers";

export const WORKSPACE_TOOL_NAMES = ["active_note", "open_note", "list_commands", "run_command"] as const;

export function registerWorkspaceTools(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"active_note",
		{
			title: "The note open in Obsidian",
			description:
				"The path of the note open in Obsidian's active editor (the person's current note). Read it with read_note.",
			inputSchema: {},
			outputSchema: { path: z.string() },
			annotations: READS,
		},
		() =>
			guarded(context, async () => {
				const path = await context.notes.activeNote(context.actor());
				if (path === null || !validateVaultPath(path, context.notes.pathPolicy(), "note").ok)
					return toolError(
						"No note is open in Obsidian's active editor (or the active file is not a note this server serves).",
					);
				return ok({ path });
			}),
	);

	server.registerTool(
		"open_note",
		{
			title: "Open a note in Obsidian",
			description:
				"Show a note to the person in Obsidian (new_tab: in a new tab). Not a write: a missing " +
				"note is an error, never created.",
			inputSchema: {
				path: z.string().describe('Vault-relative note path, e.g. "Projects/Plan.md".'),
				new_tab: z.boolean().optional(),
			},
			outputSchema: { path: z.string(), opened: z.boolean() },
			annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
		},
		({ path, new_tab: newTab }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const opened = await context.notes.openNote(context.actor(), notePath, newTab === true);
				if (opened === "unavailable") return toolError(WORKSPACE_HEADLESS);
				if (opened === "missing")
					return toolError(`There is no note at ${JSON.stringify(notePath)}; nothing was opened.`);
				return ok({ path: notePath, opened: true });
			}),
	);

	server.registerTool(
		"list_commands",
		{
			title: "List Obsidian commands",
			description: "Obsidian's commands (id and name), for run_command.",
			inputSchema: {},
			outputSchema: {
				commands: z.array(z.object({ id: z.string(), name: z.string() })),
				allowed: z.boolean().describe("Whether this key may run them."),
			},
			annotations: READS,
		},
		() =>
			guarded(context, async () => {
				const listed = context.notes.commands.list(context.actor());
				if (listed.kind === "unavailable") return toolError(WORKSPACE_HEADLESS);
				return ok({ commands: listed.commands, allowed: listed.allowed });
			}),
	);

	server.registerTool(
		"run_command",
		{
			title: "Run an Obsidian command",
			description:
				"Run an Obsidian command by id (from list_commands), as the command palette would. " +
				"Only keys the person allowed may. The person's unsaved typing is saved first; every " +
				"note the command changes is credited to you in history and can be undone. Returns " +
				"the changed notes (change tags: read a note before writing it).",
			inputSchema: { id: z.string().describe("A command id from list_commands.") },
			outputSchema: {
				id: z.string(),
				changed: z.array(
					z.object({
						path: z.string(),
						change: z.enum(["modified", "created", "deleted", "renamed"]),
						from: z.string().optional(),
						undoable: z.boolean(),
						changeTag: z.string().optional(),
					}),
				),
				unlisted: z
					.number()
					.optional()
					.describe("How many more notes it changed than are listed (all are credited to you)."),
			},
			annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
		},
		({ id }) =>
			guarded(context, async () => {
				const run = await context.notes.commands.run(context.actor(), id);
				if (run.kind !== "ran") return toolError(commandRunFailure(run, id), commandRunFacts(run));
				const changed = run.changed.map(({ path, change, from, undoable, revision }) => ({
					path,
					change,
					...(from === undefined ? {} : { from }),
					undoable,
					...(revision === undefined ? {} : { changeTag: changeTagOf(revision) }),
				}));
				return ok({ id, changed, ...(run.unlisted > 0 ? { unlisted: run.unlisted } : {}) });
			}),
	);
}
