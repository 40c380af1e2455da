/**
 * The Obsidian CLI as plugins meet it (1.12.2+): `Plugin.registerCliHandler` adds a command, command ids are global
 * and registering one twice throws, a handler gets every `name=value` as a string (a bare flag as "true") and answers
 * text only. And the app version `requireApiVersion` compares against, which tests can set to run as an older
 * Obsidian, where plugins have no `registerCliHandler` at all.
 */

export type CliData = Record<string, string>;
export interface CliFlag {
	value?: string;
	description: string;
	required?: boolean;
}
export type CliFlags = Record<string, CliFlag>;
export type CliHandler = (params: CliData) => string | Promise<string>;

/** The version the simulation runs as (Obsidian's own `apiVersion`). */
export let apiVersion = "1.12.3";

/** Test helper: run as this Obsidian version from now on (set it before the plugin is constructed). */
export function setApiVersion(version: string): void {
	apiVersion = version;
}

/** True if the app's version is `version` or newer, as Obsidian's requireApiVersion. */
export function requireApiVersion(version: string): boolean {
	const have = apiVersion.split(".").map(Number);
	const want = version.split(".").map(Number);
	for (let i = 0; i < Math.max(have.length, want.length); i++) {
		const difference = (have[i] ?? 0) - (want[i] ?? 0);
		if (difference !== 0) return difference > 0;
	}
	return true;
}

/** The version from which plugins can register CLI commands. */
export const CLI_FOR_PLUGINS = "1.12.2";

export interface RegisteredCliCommand {
	description: string;
	flags: CliFlags | null;
	handler: CliHandler;
}

/** The app's table of CLI commands (one per app, shared by every plugin). */
export class CliRegistry {
	readonly commands = new Map<string, RegisteredCliCommand>();

	register(command: string, description: string, flags: CliFlags | null, handler: CliHandler): () => void {
		if (/\s/.test(command) || command === "") throw new Error(`Invalid CLI command id "${command}"`);
		if (this.commands.has(command)) throw new Error(`CLI command "${command}" is already registered`);
		const entry = { description, flags, handler };
		this.commands.set(command, entry);
		return () => {
			if (this.commands.get(command) === entry) this.commands.delete(command);
		};
	}

	/** Test helper: `obsidian <command> ...` with these arguments, as the handler receives them. */
	async run(command: string, data: CliData): Promise<string> {
		const entry = this.commands.get(command);
		if (!entry) throw new Error(`Command "${command}" not found. Run "obsidian help" for the list.`);
		const answer = await entry.handler({ ...data });
		if (typeof answer !== "string") throw new Error(`CLI handler of "${command}" returned ${typeof answer}, not text`);
		return answer;
	}

	/**
	 * Test helper: a command line as the CLI parses it: the command, then `name=value` words (the shell has already
	 * removed quotes) and bare flags ("true"). Inside values the CLI turns `\n` and `\t` into a newline and a tab.
	 */
	invoke(words: readonly string[]): Promise<string> {
		const [command, ...rest] = words;
		const data: CliData = {};
		for (const word of rest) {
			const equals = word.indexOf("=");
			if (equals === -1) data[word] = "true";
			else
				data[word.slice(0, equals)] = word
					.slice(equals + 1)
					.replace(/\\n/g, "\n")
					.replace(/\\t/g, "\t");
		}
		return this.run(command ?? "", data);
	}
}
