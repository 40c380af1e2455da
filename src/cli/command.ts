/** What one CLI command is: its name, its help text and arguments (as `obsidian help` shows them), and its handler. */
import type { AgentNotes } from "../service/notes/agent-notes";
import type { CliAnswer, CliError } from "./answer";
import type { Arguments } from "./args";

/** Obsidian's CliFlag: a value placeholder (none for a bare flag) and the help text. */
export interface CliFlagSpec {
	value?: string;
	description: string;
}

export interface CliCommand {
	/** `read` for `revision-guard:read`. */
	action: string;
	description: string;
	/** Every argument the command accepts; any other is an error. None is marked required, so a missing one gets a JSON answer. */
	flags: Record<string, CliFlagSpec>;
	run(args: Arguments, notes: AgentNotes): Promise<CliAnswer | CliError>;
}

export const PATH_FLAG: Record<string, CliFlagSpec> = {
	path: { value: "<path>", description: 'The note\'s path from the vault root, e.g. "Projects/Plan.md".' },
};
export const AGENT_FLAG: Record<string, CliFlagSpec> = {
	agent: { value: "<name>", description: 'Who you are, for history and conflict records (default "cli").' },
};
export const REVISION_FLAG = (description: string): Record<string, CliFlagSpec> => ({
	revision: { value: "<revision>", description },
});

/** The three ways to pass text: plain (the CLI turns \n and \t into newlines and tabs), base64, or a file. */
export const CONTENT_FLAGS: Record<string, CliFlagSpec> = {
	content: {
		value: "<text>",
		description: "The text. The CLI turns \\n and \\t into newlines and tabs: use content64= or file= for exact bytes.",
	},
	content64: { value: "<base64>", description: "The text's UTF-8 bytes in base64: exact, whatever it holds." },
	file: {
		value: "<absolute path>",
		description: "Read the text from this file (absolute path, up to the body size limit).",
	},
};
