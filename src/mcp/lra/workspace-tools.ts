/**
 * active_file_get_path, command_list, command_execute and open_file (and the 5.0.x periodic_note_get_path), with the
 * Local REST API's names and answers, through the same service as REST's /active/, /commands/, /open/ and /periodic/.
 * A command runs only for a key the person allowed; what it changes is credited to the key.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { PERIODS } from "../../core/periodic/periods";
import { validateVaultPath } from "../../core/path";
import { READS } from "../tools/annotations";
import { checkPath, guarded, type ToolContext } from "../tools/context";
import { commandRunFacts, commandRunFailure, periodicFailure, WORKSPACE_HEADLESS } from "../tools/workspace-answers";
import { lraOk, lraText, stop } from "./answers";

export function registerLraWorkspace(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"active_file_get_path",
		{
			description:
				"Return {path}: the vault-relative path of the file open in Obsidian's active editor. " +
				"Errors when none is (always, on the headless host).",
			inputSchema: {},
			annotations: READS,
		},
		() =>
			guarded(context, async () => {
				const path = await context.notes.activeNote(context.actor());
				if (path === null || !validateVaultPath(path, context.notes.pathPolicy(), "note").ok)
					stop(
						"No active file: no note this server serves is open in an active editor (the headless " +
							"host never has one). Use a path with vault_read instead.",
					);
				return lraText({ path });
			}),
	);

	server.registerTool(
		"command_list",
		{
			description:
				"Return {commands: [{id, name}]}: every Obsidian command. Running one (command_execute) " +
				"needs a key the person allowed.",
			inputSchema: {},
			annotations: READS,
		},
		() =>
			guarded(context, async () => {
				const listed = context.notes.commands.list(context.actor());
				if (listed.kind === "unavailable") stop(WORKSPACE_HEADLESS);
				return lraText({ commands: listed.commands, allowed: listed.allowed });
			}),
	);

	server.registerTool(
		"command_execute",
		{
			description:
				"Execute an Obsidian command by its id (from command_list). Only for a key the person " +
				"allowed to run commands; every note the command changes is credited to the key and " +
				'can be undone. Answers {message: "OK", changed: [...]}.',
			inputSchema: { commandId: z.string().describe("The command id to execute (e.g. 'editor:toggle-bold')") },
			annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
		},
		({ commandId }) =>
			guarded(context, async () => {
				const run = await context.notes.commands.run(context.actor(), commandId);
				if (run.kind !== "ran") stop(commandRunFailure(run, commandId), commandRunFacts(run));
				return lraOk({
					changed: run.changed.map(({ path, change, from, undoable }) => ({ path, change, from, undoable })),
					...(run.unlisted > 0 ? { unlisted: run.unlisted } : {}),
				});
			}),
	);

	server.registerTool(
		"open_file",
		{
			description:
				"Open a note in Obsidian (newLeaf: in a new tab). Opening never creates a note: a missing one is an error.",
			inputSchema: {
				path: z.string().describe("File path relative to vault root"),
				newLeaf: z.boolean().optional().describe("Open in a new leaf/pane (default: false)"),
			},
			annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
		},
		({ path, newLeaf }) =>
			guarded(context, async () => {
				const notePath = checkPath(context, path, "note");
				const opened = await context.notes.openNote(context.actor(), notePath, newLeaf === true);
				if (opened === "unavailable") stop(WORKSPACE_HEADLESS);
				if (opened === "missing")
					stop(
						`File not found: ${notePath}; nothing was opened (opening never creates a note). ` +
							`Create it with vault_write first.`,
					);
				return lraOk();
			}),
	);

	server.registerTool(
		"periodic_note_get_path",
		{
			description:
				"Return {path} of the current periodic note for a period (daily, weekly, monthly, " +
				"quarterly or yearly), creating it from its template when it does not exist (as this " +
				"key's guarded write). Use the path with vault_read, vault_append, vault_patch.",
			inputSchema: { period: z.enum(PERIODS).describe("Periodic note period") },
			annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
		},
		({ period }) =>
			guarded(context, async () => {
				const resolved = context.notes.periodic.resolve(period);
				if (resolved.kind !== "resolved") stop(periodicFailure(resolved));
				const ensured = await context.notes.periodic.ensure(context.actor(), resolved);
				if (ensured.kind === "refused")
					stop(
						`Could not create the ${period} note ${JSON.stringify(resolved.path)}: the write was refused (${ensured.outcome.kind === "refused" ? ensured.outcome.refusal.reason : ensured.outcome.kind}). ` +
							`Nothing was written.`,
					);
				return lraText({ path: resolved.path });
			}),
	);
}
