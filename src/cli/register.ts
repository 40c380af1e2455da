/**
 * Adds the guarded commands to the Obsidian CLI. Plugins can do that from Obsidian 1.12.2; on older versions there is
 * simply no CLI for plugins, and the plugin works as before (its minAppVersion does not change).
 *
 * They are registered when the plugin loads, before its vault tracking is ready, so an agent that calls one early
 * gets a JSON "not-ready" answer rather than "unknown command" (which could send it to the unguarded commands).
 */
import { requireApiVersion, type Plugin } from "obsidian";
import type { AgentNotes } from "../service/notes/agent-notes";
import { COMMAND_PREFIX } from "./answer";
import { CLI_COMMANDS } from "./commands";
import { runCliCommand } from "./run";

/** Registers every command; `notes` is the application service once the host has started (null until then). Returns whether it could. */
export function registerCliCommands(
	plugin: Plugin,
	notes: () => AgentNotes | null,
	onError?: (error: unknown) => void,
): boolean {
	// The version is written out (not a constant) so that the lint rule for newer APIs sees the guard.
	if (requireApiVersion("1.12.2")) {
		for (const command of CLI_COMMANDS) {
			plugin.registerCliHandler(`${COMMAND_PREFIX}:${command.action}`, command.description, command.flags, (data) =>
				runCliCommand(command, data, notes(), onError),
			);
		}
		return true;
	}
	return false;
}
