/** Every command the plugin adds to the Obsidian CLI, as `obsidian revision-guard:<action>`. */
import type { CliCommand } from "./command";
import { conflictsCommand, resolveCommand } from "./conflicts";
import { editCommand, patchCommand } from "./edit";
import { changesCommand, readCommand } from "./read";
import { appendCommand, deleteCommand, writeCommand } from "./write";

export const CLI_COMMANDS: readonly CliCommand[] = [
	readCommand,
	writeCommand,
	editCommand,
	appendCommand,
	patchCommand,
	deleteCommand,
	changesCommand,
	conflictsCommand,
	resolveCommand,
];
